#!/usr/bin/env python3
r"""Writes a CSV like `mysql -B -N -e "SELECT id, HEX(secret) FROM customers" | tr '\t' ','` gives for a
column encrypted with AES_ENCRYPT(secret, '1234567890'), to try migrate_mysql_column.py without a MySQL.

Row 1 is MySQL's own HEX(AES_ENCRYPT('HELLO', '1234567890')); the others are made here the way MySQL
makes them (AES-128-ECB, PKCS#7, the key string XOR-folded into 16 bytes); row 13 lost its last byte.
Usage: mysql_sample_export.py [ROWS [PATH]] (1000 rows into column.csv by default)."""

from __future__ import annotations

import csv
import sys

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

KEY_STRING = b"1234567890"
MYSQL_HELLO = "FF06A56B4E88C828A010E9BD0CE70A89"  # HEX(AES_ENCRYPT('HELLO', '1234567890')) in MySQL 8
DAMAGED_ROW = 13


def mysql_aes_encrypt(plaintext: bytes, key_string: bytes) -> bytes:
    """MySQL's AES_ENCRYPT(str, key_str) in its default block_encryption_mode, aes-128-ecb."""
    key = bytearray(16)
    for i, byte in enumerate(key_string):
        key[i % 16] ^= byte
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(bytes(key)), modes.ECB()).encryptor()
    return encryptor.update(padder.update(plaintext) + padder.finalize()) + encryptor.finalize()


def sample_secret(row_id: int) -> bytes:
    return f"customer {row_id} secret".encode()


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    path = sys.argv[2] if len(sys.argv) > 2 else "column.csv"
    assert mysql_aes_encrypt(b"HELLO", KEY_STRING).hex().upper() == MYSQL_HELLO, "not MySQL's AES_ENCRYPT"
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["1", MYSQL_HELLO])
        for row_id in range(2, rows + 1):
            value = mysql_aes_encrypt(sample_secret(row_id), KEY_STRING).hex().upper()
            out.writerow([str(row_id), value[:-2] if row_id == DAMAGED_ROW else value])
    print(f"wrote {rows} rows to {path}")


if __name__ == "__main__":
    main()
