"""report.md, its charts, the comparison of two result folders, and the number formatting they share."""
