package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AuditSinkAddressTest {
  @Test
  void parse_tcpAndUnix() {
    assertThat(AuditSinkAddress.parse("tcp://audit.example:5140").address())
        .isEqualTo(InetSocketAddress.createUnresolved("audit.example", 5140));
    assertThat(AuditSinkAddress.parse("unix:/run/audit.sock").address())
        .isEqualTo(UnixDomainSocketAddress.of("/run/audit.sock"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "audit.example:5140",
        "tcp://audit.example",
        "tcp://:5140",
        "unix:",
        "http://x:1/y"
      })
  void parse_refusesWhatIsNoSocketAddress(String spec) {
    assertThatThrownBy(() -> AuditSinkAddress.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--audit-sink");
  }
}
