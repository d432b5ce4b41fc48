# syntax=docker/dockerfile:1.7
# ghz (gRPC load tester) for the chart's in-cluster campaign (values ghz.*): no official image is published,
# so it is built here from its Go module at the version the load test pins. Multi-arch like the server:
#   docker buildx build --platform linux/amd64,linux/arm64 -f deploy/docker/ghz.Dockerfile -t REGISTRY/ghz:v0.120.0 --push deploy/docker
ARG GO_IMAGE=golang:1.26-bookworm
ARG GHZ_VERSION=v0.120.0

FROM --platform=$BUILDPLATFORM ${GO_IMAGE} AS build
ARG GHZ_VERSION
ARG TARGETOS
ARG TARGETARCH
# Cross-compiled installs land in bin/<os>_<arch>/, native ones in bin/: take whichever was written.
RUN --mount=type=cache,target=/root/go/pkg/mod \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go install "github.com/bojand/ghz/cmd/ghz@${GHZ_VERSION}" \
 && mkdir -p /out && find "$(go env GOPATH)/bin" -name ghz -type f -exec cp {} /out/ghz \;

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/ghz /ghz
USER 10001:10001
ENTRYPOINT ["/ghz"]
