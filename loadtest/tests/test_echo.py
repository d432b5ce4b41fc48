"""Tests of lt/servers/echo.py: the echo ceiling is built with the server's grpc-java and protobuf."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import tools  # noqa: E402
from lt.servers import echo  # noqa: E402


class VersionsTest(unittest.TestCase):
    def test_echo_pom_defaults_match_the_server(self):
        server = echo.server_versions()
        self.assertEqual(set(server), {"grpc.version", "protobuf.version"})
        self.assertEqual(
            echo.pom_properties((echo.ECHO_DIR / "pom.xml").read_text()),
            server,
            "loadtest/echo/pom.xml's grpc.version / protobuf.version must equal server/pom.xml's",
        )

    def test_pom_properties_reads_only_the_properties_block(self):
        pom = (
            "<project><properties><grpc.version>1.2.3</grpc.version>\n<protobuf.version> 4.5 </protobuf.version>"
            "</properties><plugin><grpc.version>9</grpc.version></plugin></project>"
        )
        self.assertEqual(echo.pom_properties(pom), {"grpc.version": "1.2.3", "protobuf.version": "4.5"})

    def test_echo_uses_the_server_wrapper_and_the_repo_protos(self):
        pom = (echo.ECHO_DIR / "pom.xml").read_text()
        self.assertIn("<proto.root>${project.basedir}/../../proto</proto.root>", pom)
        self.assertTrue((tools.REPO / "server" / "mvnw").exists())


if __name__ == "__main__":
    unittest.main()
