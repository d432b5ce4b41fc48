"""What the runner reads around a run: CPU time (/proc), Prometheus text (/metrics, echo's /stats), host facts."""
