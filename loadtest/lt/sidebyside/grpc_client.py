"""Real gRPC calls with grpcio and identity (de)serializers: the exact bytes h2load will send, once, to
see the status and answer h2load cannot. grpcio is imported on use: it lives in the runner's venv."""


class Client:
    def __init__(self, target: str):
        import grpc

        self._grpc = grpc
        self.channel = grpc.insecure_channel(target)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def call(self, method: str, message: bytes, timeout: float = 30.0):
        """(status code name, response bytes or None, details) of one unary call."""
        fn = self.channel.unary_unary(f"/{method}", request_serializer=None, response_deserializer=None)
        try:
            return "OK", fn(message, timeout=timeout), ""
        except self._grpc.RpcError as e:
            return e.code().name, None, e.details()

    def must(self, method: str, message: bytes, response_type):
        """The parsed response and its size in bytes; exits the runner unless the call answered OK."""
        code, raw, details = self.call(method, message)
        if code != "OK":
            raise SystemExit(f"loadtest: {method} answered {code}: {details}")
        return response_type.FromString(raw), len(raw)

    def must_stream(self, method: str, messages: list[bytes], response_type, timeout: float = 30.0):
        """One bidi stream sending `messages`: the parsed responses and their total size in bytes."""
        fn = self.channel.stream_stream(f"/{method}", request_serializer=None, response_deserializer=None)
        try:
            raw = list(fn(iter(messages), timeout=timeout))
        except self._grpc.RpcError as e:
            raise SystemExit(f"loadtest: {method} answered {e.code().name}: {e.details()}") from None
        return [response_type.FromString(r) for r in raw], sum(len(r) for r in raw)

    def close(self):
        self.channel.close()
