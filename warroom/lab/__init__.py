"""The balance lab: designers sweep scenario data and bot pairings over many simulated games and read what each
change does (`warroom lab run SPEC.toml`, `warroom lab report FOLDER`)."""
