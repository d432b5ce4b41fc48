"""The data-key file format (proto/README.md, "Data-key file format"): large objects encrypted locally,
chunk by chunk, with a data key from GenerateDataKey. The clients' encrypt_file, decrypt_file and
rewrap_file_key call `operations`; the rest is its parts."""
