# cipherd: `make run` starts a server on an embedded key store; `make test` runs every test.
# Every tool is installed by the project's own scripts (Maven wrapper, .ci/install-go-tool) and
# cached under ~/.cache/cipherd or ~/.m2.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

JDK_HOME := $(shell .ci/jdk-home 2>/dev/null)
JAVA := $(JDK_HOME)/bin/java
JDK_MAJOR := $(shell [ -n "$(JDK_HOME)" ] && $(JAVA) -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
# JDK 23+ warns at every start that protobuf, Netty and Maven's Guice use sun.misc.Unsafe; they still may.
UNSAFE_OK := $(shell [ "$(JDK_MAJOR)" -ge 23 ] 2>/dev/null && echo --sun-misc-unsafe-memory-access=allow)
JAVA_OPTS ?= $(UNSAFE_OK)
MVN := cd server && JAVA_HOME=$(JDK_HOME) MAVEN_OPTS="$(UNSAFE_OK)" ./mvnw -B --no-transfer-progress
BUF_VERSION := v1.75.0
DATA_DIR ?= data
JAR := server/target/cipherd.jar

.PHONY: help jdk build run test check check-python check-ts check-go check-java prefetch-tools test-make proto proto-check lint-python lint-ts proto-go proto-python proto-ts test-go test-python test-attacks test-ts test-java-client proto-java test-crosslang test-docs test-deploy test-image test-image-arm64 test-k8s test-java format test-vault test-postgres test-otel lint-proto proto-release fuzz-smoke fuzz bench bench-subjects loadtest loadtest-check loadtest-smoke test-arm64-startup clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-19s %s\n", $$1, $$2}'

jdk:
	@[ -n "$(JDK_HOME)" ] || { .ci/jdk-home; exit 1; }

# What the jar is built from: Maven rebuilds it only when one of these is newer than the jar, so
# `make run` and the test targets start at once on an unchanged tree. The directories are listed too,
# because deleting or renaming a source changes only its directory's time. protoc reads every .proto
# under proto/ (the pom's proto.root); -mindepth 1 leaves out proto/ itself, which as a prerequisite
# would name the phony target `proto` and regenerate the clients' code; proto/scripts (the clients'
# generator) is none of the jar's business.
JAR_SOURCES := server/pom.xml $(shell find server/src/main 2>/dev/null) \
  $(shell find proto -mindepth 1 -path proto/scripts -prune -o \( -type d -o -name '*.proto' \) -print 2>/dev/null)

build: jdk $(JAR) ## build the server jar (server/target/cipherd.jar) when a source is newer than it
	@echo "make build: $(JAR) is up to date with server/pom.xml, server/src/main and proto/"

# touch: Maven leaves the jar's time alone when it finds nothing to recompile, and the jar must come
# out newer than the source that made it stale, or every later make would package again.
$(JAR): $(JAR_SOURCES) | jdk
	$(MVN) -q package -DskipTests
	@.ci/check-jar $@ >/dev/null
	@touch $@

# The server's own defaults (ServerCommand --port, --http-port).
PORT ?= 50051
HTTP_PORT ?= 9464

run: jdk $(JAR) ## start cipherd on 127.0.0.1:PORT (50051), /metrics on HTTP_PORT (9464), embedded key store in ./data
	@mkdir -p $(DATA_DIR) && chmod 700 $(DATA_DIR)
	@if [ ! -s $(DATA_DIR)/keystore-password ]; then \
	  (umask 077 && head -c 32 /dev/urandom | base64 > $(DATA_DIR)/keystore-password); \
	  echo "make run: generated a key store password in $(DATA_DIR)/keystore-password (mode 0600); back it up with $(DATA_DIR)/"; \
	fi
	@echo "make run: gRPC on 127.0.0.1:$(PORT), http://127.0.0.1:$(HTTP_PORT)/metrics, key 'demo' and the audit trail (audit.log) in $(DATA_DIR)/; Ctrl-C stops it (other ports: make run PORT=... HTTP_PORT=...)"
	$(JAVA) $(JAVA_OPTS) -jar $(JAR) --port $(PORT) --http-port $(HTTP_PORT) --data-dir $(DATA_DIR) --keystore-password-file $(DATA_DIR)/keystore-password --demo-key demo --audit-log $(DATA_DIR)/audit.log --audit-required

test: prefetch-tools test-make lint-proto test-java test-vault test-postgres test-otel fuzz-smoke loadtest-check loadtest-smoke test-arm64-startup test-go test-python test-attacks test-docs test-ts test-java-client test-crosslang test-deploy test-k8s ## run every test: make run's rebuild rule, proto lint, Java tests, Vault tests, the subject store on a real PostgreSQL, a bounded fuzzing run, load-test runner tests, a short checked campaign, the aarch64 start-up under qemu, the Go, Python, TypeScript and Java clients against the real server and each other, the attack suite, the docs' commands, the Helm chart, dashboard and alert rules, the image built and run, the chart on a real single-node Kubernetes

prefetch-tools:
	@.ci/prefetch-tools

# --- make check: the fast inner loop. Formatting and lint of every language, the generated code's
# staleness, and the unit tests that start no server; no jar is built or run (docs/development.md).
# The server's tests that start no server: these packages, and the layering and source checks.
SERVER_UNIT_TESTS := io/cipherd/server/crypto/**/*Test,io/cipherd/server/keys/**/*Test,io/cipherd/server/keycache/**/*Test,io/cipherd/server/usage/**/*Test,io/cipherd/server/pool/**/*Test,io/cipherd/server/lifecycle/**/*Test,io/cipherd/server/engine/**/*Test,io/cipherd/server/keystore/pkcs12/**/*Test,io/cipherd/server/subjects/**/*Test,io/cipherd/server/subjectstore/**/*Test,io/cipherd/server/maintenance/**/*Test,io/cipherd/server/importjobs/**/*Test,LayeringTest,SourceHygieneTest

check: lint-proto proto-check check-python check-ts check-go check-java ## the fast inner loop: format and lint of every language (ruff, Biome, gofmt/go vet, google-java-format, buf lint), generated code fresh, unit tests that start no server
	@echo "make check: formatting, lint, generated code and the unit tests of every language pass (no server started)"

check-python: lint-python ## Python: ruff, the sync client generated from aio.py, mypy --strict (client, attacks, docs test), the client's tests that start no server, the load-test runner's unit tests
	clients/python/scripts/unasync --check
	venv="$$(clients/python/scripts/venv)"; for d in clients/python attacks docs/test; do (cd $$d && "$$venv/bin/mypy" --config-file pyproject.toml); done
	cd clients/python && "$$(scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q --no-server
	$(PYTHON) loadtest/check.py

check-ts: lint-ts ## TypeScript: Biome, tsc --strict of src and tests, the tests that start no server
	clients/typescript/scripts/unit

check-go: ## Go: gofmt and go vet (client, cipherctl, publish, deploy/validate, the server's FF1 cross-check, the crosslang FF1 reference), go test -short (no server, no PostgreSQL)
	@unformatted=$$(gofmt -l clients/go clients/crosslang/ff1ref deploy/validate server/src/test/go) && { [ -z "$$unformatted" ] || { echo "check-go: run gofmt -w on: $$unformatted" >&2; exit 1; }; }
	cd clients/go && go vet ./... && (cd publish && go vet ./...) && go test -short -count=1 ./...
	cd deploy/validate && go vet ./...
	cd server/src/test/go/ff1crosscheck && go vet ./...
	cd clients/crosslang/ff1ref && go vet ./...

check-java: jdk ## Java: google-java-format of the server and the Java client, the server's unit tests that start no server (crypto, keys, key cache, usage, pools, lifecycle, engine, PKCS#12 store, subject stores in memory and SQLite, maintenance, layering), the Java client's vector and retry tests
	$(MVN) -q spotless:check test -Dtest='$(SERVER_UNIT_TESTS)' -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dextra.testvectors.dir="$$(../.ci/fetch-testvectors)"
	cd clients/java && $(JAVA_CLIENT_MVN) -q -pl cipherd-client spotless:check && $(JAVA_CLIENT_MVN) -q -pl cipherd-client -am test \
	  -Dtest='EnvelopeVectorsTest,ErrorsVectorsTest,RetryAndDeadlineTest' -Dsurefire.failIfNoSpecifiedTests=false

test-make: ## make run and make build package the jar only when a source is newer, and pass PORT and HTTP_PORT (make -n on a scratch tree)
	.ci/check-make-run

test-arm64-startup: build ## start the jar on aarch64 under qemu-user (Debian arm64 JDK, cached), Encrypt/Decrypt, SIGTERM; no timings
	.ci/check-arm64-startup

test-java: jdk ## Java unit, vector and gRPC tests, the google-java-format check (openssl from .ci/install-openssl makes the legacy ciphertexts), and the jar's manifest (.ci/check-jar)
	openssl="$$(.ci/install-openssl)"; $(MVN) verify -Dextra.testvectors.dir="$$(../.ci/fetch-testvectors)" -Dopenssl.bin="$$openssl"
	.ci/check-jar $(JAR)

format: jdk ## rewrite every source as its checks want it: Java (google-java-format), Python (ruff format, ruff check --fix), TypeScript (Biome), Go (gofmt); make check and the test targets fail on a file one would change
	$(MVN) -q spotless:apply
	cd clients/java && $(JAVA_CLIENT_MVN) -q -pl cipherd-client spotless:apply
	$(RUFF) format --quiet . && $(RUFF) check --fix --quiet .
	clients/typescript/scripts/install && cd clients/typescript && node_modules/.bin/biome check --write src test
	gofmt -w clients/go clients/crosslang/ff1ref deploy/validate server/src/test/go

FUZZ_TESTS := EnvelopeFuzzTest CryptoRequestFuzzTest
FUZZ_SMOKE ?= 15s
FUZZ_DURATION ?= 10m

fuzz-smoke: jdk ## fuzz each fuzz test for FUZZ_SMOKE (15s): the bounded run of make test
	@for t in $(FUZZ_TESTS); do \
	  echo "fuzzing $$t for $(FUZZ_SMOKE)"; \
	  (JAZZER_FUZZ=1 $(MVN) -q test -Dtest=$$t -Dtest.excludedGroups= -Djazzer.max_duration=$(FUZZ_SMOKE)); \
	done

fuzz: ## fuzz each fuzz test for FUZZ_DURATION (10m); findings land as regression inputs in src/test/resources
	$(MAKE) fuzz-smoke FUZZ_SMOKE=$(FUZZ_DURATION)

test-vault: jdk ## key-store tests against a real Vault (builds Vault v1.21.0 once with .ci/install-vault)
	@start=$$(date +%s); vault="$$(.ci/install-vault)"; echo "test-vault: $$vault ready in $$(( $$(date +%s) - start ))s"
	$(MVN) test -Dtest.excludedGroups= -Dgroups=vault -Dsurefire.failIfNoSpecifiedTests=false

test-postgres: jdk ## the subject store on a real PostgreSQL 15 (a throwaway cluster per run; .ci/install-postgres installs Debian's package once): the store's contract, two replicas' pools on one database, a restored table copy, two servers on one database and one Vault (built once by .ci/install-vault, as for test-vault)
	@start=$$(date +%s); pg="$$(.ci/install-postgres)"; vault="$$(.ci/install-vault)"; echo "test-postgres: PostgreSQL in $$pg and $$vault ready in $$(( $$(date +%s) - start ))s"
	export CIPHERD_POSTGRES_BIN="$$(.ci/install-postgres)"; $(MVN) test -Dtest.excludedGroups= -Dgroups=postgres -Dsurefire.failIfNoSpecifiedTests=false

test-otel: build ## traces through a real OpenTelemetry Collector (built once by .ci/install-otelcol): a caller's span the parent of cipherd's, its attributes, key-store child spans (embedded and Vault), a Java client's call through cipherd to a Vault read as one trace, the audit record's trace id, an exemplar; nothing secret exported
	@start=$$(date +%s); otelcol="$$(.ci/install-otelcol)"; vault="$$(.ci/install-vault)"; echo "test-otel: $$otelcol and $$vault ready in $$(( $$(date +%s) - start ))s"; \
	java_caller="$$(deploy/otel/java-caller/classpath)"; \
	cd deploy/otel && $(CLIENT_TEST_ENV) OTELCOL_BIN="$$otelcol" VAULT_BIN="$$vault" JAVA_CALLER_CLASSPATH="$$java_caller" "$$(../../clients/python/scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q $(PYTEST_ARGS)

BUF = "$$(../.ci/install-go-tool buf github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION))"

lint-proto: ## buf lint of proto/, and buf breaking against the last released API (proto/released/)
	cd proto && $(BUF) lint && $(BUF) breaking --against released/cipherd-v1.json

proto-release: ## record the API as released: the baseline buf breaking compares against (on a release only)
	cd proto && $(BUF) build --exclude-source-info -o released/cipherd-v1.json

bench: jdk ## JMH benchmarks of the cipher strategies (BENCH_ARGS to pass JMH options)
	$(MVN) -q test-compile exec:exec \
	  -Dexec.args="$(UNSAFE_OK) -cp %classpath org.openjdk.jmh.Main $(or $(BENCH_ARGS),CipherStrategyBenchmark -prof gc)"

SUBJECTS ?= 1000000

bench-subjects: jdk ## the subject store seeded with SUBJECTS (1,000,000) subjects on SQLite and a throwaway PostgreSQL: bytes per subject, seeding rate, find() of 256 cold subjects p50/p99, erasures per hour, open() time empty and full (not part of make test)
	export CIPHERD_POSTGRES_BIN="$$(.ci/install-postgres)"; \
	$(MVN) -q test-compile exec:exec -Dexec.args="$(UNSAFE_OK) --enable-native-access=ALL-UNNAMED -Xmx2g -cp %classpath io.cipherd.server.bench.SubjectStoreBenchmark $(SUBJECTS) $(or $(BENCH_STORES),both)"

LOADTEST_ARGS ?=
PYTHON ?= $(or $(shell command -v python3.11 2>/dev/null),python3)

loadtest: build ## ghz campaigns + h2load side-by-side (Vault, echo, cipherd), report in loadtest/results/ (LOADTEST_ARGS, e.g. '--duration 5 --campaigns unary', '--side-by-side-only')
	$(PYTHON) loadtest/run.py --no-build $(LOADTEST_ARGS)

loadtest-check: ## unit tests of the load-test runner, in its venv (no server, no ghz, no h2load)
	$(PYTHON) loadtest/check.py

loadtest-smoke: build ## the short campaign of make test (--preset smoke), failing unless its report is complete and plausible
	$(PYTHON) loadtest/run.py --no-build --preset smoke --check $(LOADTEST_ARGS)

# --- clients: code generated from proto/ by one buf template (proto/buf.gen.yaml, make proto),
# committed, and checked for staleness by make proto-check (regenerated into a temp dir, failing when
# it differs), which each client's test-* target runs. The tests start the jar of `make build`
# (CIPHERD_JAR, CIPHERD_JAVA) on free ports; in CI a missing jar fails, never skips.
CLIENT_TEST_ENV := CIPHERD_JAR=$(CURDIR)/$(JAR) CIPHERD_JAVA=$(JAVA) CIPHERD_JAVA_OPTS="$(JAVA_OPTS)"

proto: ## regenerate every client's code (Go, Python, TypeScript, Java) from proto/ with proto/buf.gen.yaml
	BUF_VERSION=$(BUF_VERSION) proto/scripts/generate

proto-check: ## fail when any client's generated code differs from what proto/buf.gen.yaml makes from proto/ now
	BUF_VERSION=$(BUF_VERSION) proto/scripts/check-generated

# One template generates all four languages at once; these names stay as aliases of make proto.
proto-go proto-python proto-ts proto-java: proto

# --- Go client (clients/go) and cipherctl ---

test-go: build proto-check ## Go client and cipherctl: generated code not stale, go vet, tests against the real jar, (cipherctl scan) a throwaway PostgreSQL and (import vault-transit) a Vault dev server; a module outside the checkout builds the client from a file:// module proxy
	@start=$$(date +%s); pg="$$(.ci/install-postgres)"; echo "test-go: PostgreSQL in $$pg ready in $$(( $$(date +%s) - start ))s"
	cd clients/go && unformatted=$$(gofmt -l .) && { [ -z "$$unformatted" ] || { echo "test-go: run gofmt -w on: $$unformatted" >&2; exit 1; }; } && \
	  go vet ./... && \
	  $(CLIENT_TEST_ENV) CIPHERD_POSTGRES_BIN="$$(../../.ci/install-postgres)" CIPHERD_VAULT_BIN="$$(../../.ci/install-vault)" go test -count=1 ./... && \
	  cd publish && go vet ./... && go test -count=1 ./...

# --- Python and TypeScript clients (clients/python, clients/typescript) ---

# ruff (pinned in the Python client's venv, configured by ruff.toml) over every Python file of the repository.
RUFF = "$$(clients/python/scripts/venv)/bin/ruff"

lint-python: ## ruff format --check and ruff check (ruff.toml) of every Python file: the client, attacks/, docs/test, loadtest/, crosslang, deploy/
	$(RUFF) format --check . && $(RUFF) check .

test-python: build proto-check lint-python ## Python client: generated code fresh, the sync client generated from the asyncio one, ruff, mypy --strict, pytest against the jar; the wheel and sdist built (python -m build) and the wheel used from a fresh venv outside the checkout
	clients/python/scripts/unasync --check
	cd clients/python && "$$(scripts/venv)/bin/mypy" --config-file pyproject.toml
	cd clients/python && $(CLIENT_TEST_ENV) "$$(scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q $(PYTEST_ARGS)

test-attacks: build ## attack suite against the real jar over real sockets: one test per attack class, failing when an attack beats its budget (attacks/README.md)
	cd attacks && "$$(../clients/python/scripts/venv)/bin/mypy" --config-file pyproject.toml
	cd attacks && $(CLIENT_TEST_ENV) CIPHERD_VAULT_BIN="$$(../.ci/install-vault)" "$$(../clients/python/scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q $(PYTEST_ARGS)

# --- docs: every block of README.md, docs/*.md and the clients' READMEs, run as a reader would ---
GRPCURL_PKG := github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3

test-docs: build ## run the blocks of README.md, docs/ and the clients' READMEs in order against the real jar, outputs compared in shape (docs/README.md, "Docs that run")
	clients/typescript/scripts/install
	cd clients/typescript && node_modules/.bin/tsc -p tsconfig.json
	cd docs/test && "$$(../../clients/python/scripts/venv)/bin/mypy" --config-file pyproject.toml
	grpcurl="$$(.ci/install-go-tool grpcurl $(GRPCURL_PKG))"; cd docs/test && $(CLIENT_TEST_ENV) GRPCURL="$$grpcurl" \
	  "$$(../../clients/python/scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q $(PYTEST_ARGS)

lint-ts: ## Biome (clients/typescript/biome.json): the TypeScript client's formatting and lint, warnings as errors
	clients/typescript/scripts/install
	cd clients/typescript && node_modules/.bin/biome ci --error-on-warnings src test

test-ts: build proto-check lint-ts ## TypeScript client: generated code fresh, Biome, tsc --strict, node:test against the jar; the npm tarball packed (npm pack) and used by a project outside the checkout
	cd clients/typescript && $(CLIENT_TEST_ENV) scripts/test

# --- Java client (clients/java): cipherd-api (protos + generated Java) and cipherd-client, JDK 17+ ---
# Run from clients/java, with the server's Maven wrapper.
JAVA_CLIENT_MVN := JAVA_HOME=$(JDK_HOME) MAVEN_OPTS="$(UNSAFE_OK)" ../../server/mvnw -B --no-transfer-progress

test-java-client: build proto-check ## Java client: generated code fresh, google-java-format, tests on JDK 17 against the jar, the Maven artifacts installed and used by a project outside the checkout
	jdk17="$$(clients/java/scripts/jdk17-home)"; cd clients/java && $(CLIENT_TEST_ENV) $(JAVA_CLIENT_MVN) verify -Dtest.jvm="$$jdk17/bin/java" && $(JAVA_CLIENT_MVN) -q -pl cipherd-client spotless:check
	$(CLIENT_TEST_ENV) JAVA_HOME=$(JDK_HOME) MAVEN_OPTS="$(UNSAFE_OK)" clients/java/scripts/check-artifacts

test-crosslang: build ## encrypt in each client language (Go, Python, TypeScript, Java) and decrypt in every other, through one real server; the four clients and the server carry one version
	clients/typescript/scripts/install
	cd clients/typescript && node_modules/.bin/tsc -p tsconfig.json
	classpath="$$(clients/java/scripts/classpath)" && \
	cd clients/crosslang && $(CLIENT_TEST_ENV) CIPHERD_JAVA_CLIENT_CLASSPATH="$$classpath" CIPHERD_CLIENT_JAVA=$(JAVA) CIPHERD_CLIENT_JAVA_OPTS="$(JAVA_OPTS)" PYTHONPATH=../python/src:../python/tests \
	  "$$(../python/scripts/venv)/bin/python" -m pytest -p no:cacheprovider -q .

# --- deploy/ and helm/: the Dockerfile, the Helm chart, the dashboard, the alert rules, the Vault scripts ---
test-image: build ## build deploy/docker/Dockerfile (linux/amd64, podman, local Debian bases) and run it as the chart does: hardening checked in /proc, start-to-ready, round trip and /metrics via published ports, the crosslang suite against it, SIGTERM under ghz load
	deploy/test-image

test-image-arm64: build ## build deploy/docker/Dockerfile for linux/arm64 (Maven on amd64, the runtime stage emulated) and run it under qemu-user through binfmt_misc, hardened: aarch64, round trip, /metrics, SIGTERM (ARM64_CAMPAIGN=1: a ghz campaign's GC profile via loadtest --target)
	deploy/test-image-arm64

test-k8s: build ## the Helm chart on a real single-node Kubernetes built from upstream modules (.ci/install-kubernetes), Vault in-cluster with Kubernetes auth: install, helm test, rolling upgrade under load, a pod and Vault killed
	deploy/k8s/test-k8s

test-deploy: build test-image test-image-arm64 ## hadolint of the Dockerfile; chart rendered, strictly decoded, linted and checked per values file; dashboard and rules against a real scrape; promtool; Vault setup scripts against a real Vault
	"$$(deploy/validate/install-hadolint)" --failure-threshold info deploy/docker/Dockerfile deploy/docker/ghz.Dockerfile
	@echo "hadolint: deploy/docker/Dockerfile and ghz.Dockerfile clean"
	vault="$$(.ci/install-vault)"; cd deploy/validate && VAULT_BIN="$$vault" go test -count=1 -v ./...

clean: ## remove build output (keeps ./data)
	$(MVN) -q clean
