"""The h2load pipeline (issue 4): Vault Transit, the echo ceiling and cipherd driven by one client with the
same shapes; request bodies from the real protos, one row of figures per run, ratios and the issue's goals."""
