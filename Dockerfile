# syntax=docker/dockerfile:1
# envguard's container image: `envguard serve` on 0.0.0.0:8080 with the
# bearer token read from a mounted file, as a non-root user on a distroless
# base. NVML comes from the host through the NVIDIA container toolkit; see
# docs/deploy.md. Build: docker build -t envguard --build-arg VERSION=v0.1.0 .

# The Go release line of go.mod's go directive (internal/packaging checks
# it); the builder's Debian release matches the runtime base's, so the cgo
# binary finds the glibc it was linked against.
ARG GO_VERSION=1.26
FROM golang:${GO_VERSION}-trixie AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
# cgo: go-nvml loads libnvidia-ml.so at run time; it need not exist here.
ENV CGO_ENABLED=1 CGO_CFLAGS=-Wno-deprecated-declarations
RUN go build -trimpath -ldflags "-s -w -X github.com/envguard/envguard/cli.Version=${VERSION}" \
	-o /out/envguard ./cmd/envguard

FROM gcr.io/distroless/base-debian13:nonroot
COPY --from=build /out/envguard /usr/local/bin/envguard
# The NVIDIA container toolkit mounts the driver's NVML library into the
# container for the "utility" capability, and nothing more; which GPUs it
# shows is NVIDIA_VISIBLE_DEVICES, set at run time (docker run --gpus, or
# the DaemonSet in deploy/kubernetes).
ENV NVIDIA_DRIVER_CAPABILITIES=utility
# distroless's nonroot user, by number so that Kubernetes' runAsNonRoot can
# verify it.
USER 65532:65532
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
	CMD ["envguard", "health", "--addr", "127.0.0.1:8080"]
ENTRYPOINT ["envguard"]
CMD ["serve", "--addr", "0.0.0.0:8080", "--token-file", "/run/secrets/envguard-token"]
