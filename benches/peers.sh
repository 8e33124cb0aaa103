# Sourced by benches/challenge.sh and benches/lns.sh: puts cargo's binaries on PATH and
# stops, naming the caller, unless the peers are installed (minizinc with Gecode,
# Pumpkin, Chuffed: benches/challenge/setup-peers.sh installs them), then builds
# fzn-ambsolve in the checkout at $root.
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v minizinc >/dev/null 2>&1 || ! command -v pumpkin-solver >/dev/null 2>&1 \
        || ! [ -x "${CHUFFED_PREFIX:-/opt/chuffed}/bin/fzn-chuffed" ]; then
    echo "$(basename "$0"): minizinc, pumpkin-solver or Chuffed missing: run benches/challenge/setup-peers.sh first" >&2
    exit 1
fi
cargo build --release --quiet -p ambsolve-fzn --manifest-path "$root/Cargo.toml"
