package io.cipherd.client;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a "host:port" target names this machine: localhost, 127.0.0.0/8 or ::1. */
final class Loopback {
  private Loopback() {}

  static boolean is(String target) {
    int colon = target.lastIndexOf(':');
    if (colon < 0) {
      return false;
    }
    String host = target.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.equals("localhost")) {
      return true;
    }
    if (!host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false; // a name: never resolved here
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
