"""Named selections of runs and settings, so a short, fixed campaign is one flag rather than a
command line to copy. `smoke` is what `make test` runs: one ghz run of each kind of call and a short
h2load side-by-side of every shape, about three minutes, so every tool the full campaign needs is installed and
exercised on a fresh machine. Its figures are for the sanity check, not for quoting."""

PRESETS = {
    "smoke": {
        "campaigns": "unary,batch,reencrypt,stream",
        "only": r"^(encrypt-gcm-100|decrypt-gcm-100|encrypt-batch-gcm-100-x256|"
        r"reencrypt-batch-gcm-100-x256|reencrypt-stream-gcm-100-x256)$",
        "duration": 3.0,
        "warmup": 8.0,
        "skip_first": 500,
        "sbs_duration": 3.0,
        "sbs_warmup": 10.0,
        "sbs_h2load_warmup": 1.0,
        "sbs_jmh_args": "-wi 1 -w 1 -i 2 -r 1 -f 1",
    },
}


def apply(args, parser) -> None:
    """Fills in the preset's settings for every flag the command line left at its default."""
    if not args.preset:
        return
    for name, value in PRESETS[args.preset].items():
        if getattr(args, name) == parser.get_default(name):
            setattr(args, name, value)
