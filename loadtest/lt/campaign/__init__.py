"""The ghz pipeline: campaign files expanded into runs, keys and fixtures made with grpcurl, one bounded ghz
run each, and the figures derived from ghz's report and the server's /metrics."""
