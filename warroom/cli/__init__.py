"""The `warroom` command line (Typer + Rich)."""
