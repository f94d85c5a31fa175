# s2r — common tasks. `make demo` (or `make run`) and `make test` are all a newcomer needs.

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
FUZZTIME ?= 10s
BENCHTIME ?= 200ms

.PHONY: run demo build test test-short test-sqlite bench lint fuzz screenshots

## run: start s2r on 127.0.0.1:8080 with the embedded SQLite database in ./s2r-data;
## the console at http://127.0.0.1:8080/console/ acts as admin@localhost (S2R_DEV_IDENTITY).
## Each variable set in the environment wins: S2R_LISTEN_ADDR=127.0.0.1:9090 make run
S2R_LISTEN_ADDR      := $(or $(S2R_LISTEN_ADDR),127.0.0.1:8080)
S2R_DEV_IDENTITY     := $(or $(S2R_DEV_IDENTITY),admin@localhost)
S2R_BOOTSTRAP_ADMINS := $(or $(S2R_BOOTSTRAP_ADMINS),$(S2R_DEV_IDENTITY))
run:
	S2R_LISTEN_ADDR=$(S2R_LISTEN_ADDR) S2R_DEV_IDENTITY=$(S2R_DEV_IDENTITY) S2R_BOOTSTRAP_ADMINS=$(S2R_BOOTSTRAP_ADMINS) \
		go run -ldflags "$(LDFLAGS)" ./cmd/s2r serve

## demo: `make run` plus two sample backends onboarded and activated (publish/demo/calculator,
## consume/demo/quotes); prints the console URL and curl commands that try them (docs/quickstart.md)
demo:
	S2R_LISTEN_ADDR=$(S2R_LISTEN_ADDR) S2R_DEV_IDENTITY=$(S2R_DEV_IDENTITY) S2R_BOOTSTRAP_ADMINS=$(S2R_BOOTSTRAP_ADMINS) \
		go run -ldflags "$(LDFLAGS)" ./cmd/s2r demo

## build: build bin/s2r with version information
build:
	go build -ldflags "$(LDFLAGS)" -o bin/s2r ./cmd/s2r

## test: every test on SQLite and a throwaway PostgreSQL; prints the PostgreSQL test count.
## As root it first installs what is missing (PostgreSQL, chromium, npm soap, zeep, php-soap,
## SOAP::Lite, xmlsec, WSS4J, a test user s2rtest) and says so before it starts
test:
	scripts/test.sh

## test-short: the quick tier: no PostgreSQL, chromium, third-party SOAP stacks or
## crash/outage tests; needs Go alone and installs nothing
test-short:
	go test -short -count=1 ./...

## test-sqlite: every test, PostgreSQL halves skipped (no server needed)
test-sqlite:
	go test -count=1 ./...

## bench: benchmarks, modest run time
bench:
	go test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

## lint: gofmt must report nothing; go vet must pass
lint:
	@out=$$(gofmt -l cmd internal web); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet ./...

## screenshots: retake the console screenshots of docs/console.md
screenshots:
	scripts/console-screenshots.sh

## fuzz: every fuzz target for FUZZTIME each
fuzz:
	scripts/fuzz.sh $(FUZZTIME)
