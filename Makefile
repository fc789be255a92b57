# Two entry points for people: `make test` (build and run every test) and `make bench`.
# Everything else goes through the Maven wrapper; the agent is built by Maven (native-sigprof).
SHELL := /bin/bash
JAVA_HOME := $(shell scripts/java-home)
export JAVA_HOME
MVN := ./mvnw -B -ntp

.PHONY: all deps test build bench fuzz faults clean

all: build

deps:
	scripts/ensure-deps --test

build: deps
	$(MVN) -q -DskipTests package

# Every test runs: the suite fails if any test skipped (scripts/check-skips), since deps installed what they need.
# Then the launcher's start-up cache, on the jar the suite built (scripts/check-aot-cache).
# verify also checks the format (Spotless: palantir-java-format, clang-format-19); `./mvnw spotless:apply` fixes it.
test: deps
	scripts/check-line-length
	$(MVN) verify
	scripts/check-skips
	scripts/check-aot-cache

bench: build
	scripts/bench-overhead
	scripts/bench-rates
	scripts/bench-instructions
	scripts/bench-profile
	scripts/bench-build
	scripts/bench-blame
	scripts/bench-unwind
	scripts/bench-wall-truth
	scripts/bench-merge
	scripts/bench-viewer
	scripts/bench-longrun
	scripts/bench-locks
	scripts/bench-deep
	scripts/bench-sleep
	scripts/bench-start
	scripts/bench-switches

# The fault suite alone (it is part of `make test` too): crashes, a killed JVM, fork and exec,
# blocking calls, two recordings at once, stale shared memory, many threads, the program's own SIGPROF.
faults: deps
	$(MVN) -q -pl ui -am test -Dtest='FaultsTest,RecordEndToEndTest#deathBySignal*+interrupt*' -Dsurefire.failIfNoSpecifiedTests=false

# Coverage-guided fuzzing (Jazzer), 60 s per target; `make test` replays their committed inputs.
fuzz: build
	scripts/fuzz

clean:
	$(MVN) -q clean
