"""report.md, its charts, the comparison of two result folders (the number formatting they share is lt.tables)."""
