"""protoc-gen-grpc_python: grpcio-tools' grpc_python generator as a protoc plugin for buf.

grpcio-tools builds its gRPC generator into its own protoc (``python -m grpc_tools.protoc
--grpc_python_out``) and ships no plugin binary, and buf runs as ``protoc_builtin`` only protoc's
own languages. This plugin reads buf's CodeGeneratorRequest, hands its files to that protoc as a
descriptor set, and answers with what grpc_python wrote: the same code as calling protoc directly.
Run with the Python of the client's venv (clients/python/scripts/venv) by proto/scripts/generate.
"""

import pathlib
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def main() -> None:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    # grpc_python reads proto3 optional fields as protoc hands them over, as protoc itself runs it.
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        descriptors = descriptor_pb2.FileDescriptorSet(file=request.proto_file)
        (work / "in.pb").write_bytes(descriptors.SerializeToString())
        (work / "out").mkdir()
        option = f"--grpc_python_opt={request.parameter}" if request.parameter else None
        args = [
            "grpc_tools.protoc",
            f"--descriptor_set_in={work / 'in.pb'}",
            f"--grpc_python_out={work / 'out'}",
            *([option] if option else []),
            *request.file_to_generate,
        ]
        if protoc.main(args) != 0:
            response.error = "grpc_tools.protoc --grpc_python_out failed (its message is above)"
        else:
            for path in sorted((work / "out").rglob("*")):
                if path.is_file():
                    generated = response.file.add()
                    generated.name = path.relative_to(work / "out").as_posix()
                    generated.content = path.read_text()
    sys.stdout.buffer.write(response.SerializeToString())


if __name__ == "__main__":
    main()
