"""Rule systems hosted on the core."""
