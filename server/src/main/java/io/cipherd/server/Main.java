package io.cipherd.server;

public final class Main {
  public static void main(String[] args) {}
}
