#!/usr/bin/env bash
# Fetch the benchmark corpus: the Linux 6.1 source tree from Debian's `linux-source-6.1` package.
#
#   corpora/fetch-linux.sh            # full tree -> $DIR/linux-source-6.1, plus $DIR/CORPUS.txt
#   corpora/fetch-linux.sh --subset   # also the smaller corpus -> $DIR/linux-drivers (drivers/ only)
#
# DIR is ${ROOTBOUND_CORPUS_DIR:-$HOME/.cache/rootbound}. It must lie outside every git repository:
# rg (and rootbound) apply an enclosing repository's ignore rules, and Debian's top-level .gitignore
# (`/*`, `!/debian/`) would blank the tree inside one. Idempotent: finished steps are skipped.
set -euo pipefail

DIR="${ROOTBOUND_CORPUS_DIR:-$HOME/.cache/rootbound}"
PKG=linux-source-6.1
TARBALL=/usr/src/linux-source-6.1.tar.xz
TREE="$DIR/linux-source-6.1"
SUBSET="$DIR/linux-drivers"
INFO="$DIR/CORPUS.txt"

want_subset=0
for a in "$@"; do
    case "$a" in
    --subset) want_subset=1 ;;
    -h | --help)
        sed -n '2,9p' "$0"
        exit 0
        ;;
    *)
        echo "fetch-linux.sh: unknown argument: $a" >&2
        exit 2
        ;;
    esac
done

mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"
TREE="$DIR/linux-source-6.1"
SUBSET="$DIR/linux-drivers"
INFO="$DIR/CORPUS.txt"

# Refuse a corpus directory inside a git work tree (see above).
if top="$(git -C "$DIR" rev-parse --show-toplevel 2>/dev/null)"; then
    echo "fetch-linux.sh: $DIR is inside the git repository $top; choose ROOTBOUND_CORPUS_DIR outside it" >&2
    exit 1
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        echo "fetch-linux.sh: need root (or sudo) for: $*" >&2
        exit 1
    fi
}

installed_version() {
    dpkg-query -W -f='${Status} ${Version}\n' "$PKG" 2>/dev/null |
        awk '$1 == "install" && $3 == "installed" { print $4 }'
}

if [ -z "$(installed_version)" ] || [ ! -f "$TARBALL" ]; then
    echo "== installing $PKG with apt-get"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$PKG"
else
    echo "== $PKG $(installed_version) already installed"
fi
version="$(installed_version)"

# The done-markers live next to the trees, not inside them (grep -r would read a file inside).
if [ -f "$DIR/.linux-source-6.1.done" ]; then
    echo "== $TREE already extracted"
elif [ -d "$TREE" ] && [ "$(find "$TREE" -type f | wc -l)" = "$(tar -tvJf "$TARBALL" | grep -c '^-')" ]; then
    echo "== $TREE already there (as many files as the tarball); marking it done"
    touch "$DIR/.linux-source-6.1.done"
else
    echo "== extracting $TARBALL into $DIR"
    rm -rf "$TREE" "$DIR/.extract.tmp"
    mkdir -p "$DIR/.extract.tmp"
    tar -xJf "$TARBALL" -C "$DIR/.extract.tmp"
    mv "$DIR/.extract.tmp/linux-source-6.1" "$TREE"
    rmdir "$DIR/.extract.tmp"
    touch "$DIR/.linux-source-6.1.done"
fi

if [ -f "$INFO" ] && grep -q "^version: $version\$" "$INFO"; then
    echo "== $INFO up to date"
else
    echo "== recording $INFO"
    sha="$(sha256sum "$TARBALL" | cut -d' ' -f1)"
    {
        echo "package: $PKG"
        echo "version: $version"
        echo "tarball: $TARBALL"
        echo "tarball_bytes: $(stat -c %s "$TARBALL")"
        echo "tarball_sha256: $sha"
        echo "tree: $TREE"
        echo "tree_files: $(find "$TREE" -type f | wc -l)"
        echo "tree_bytes: $(find "$TREE" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')"
        echo "recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } >"$INFO"
fi

if [ "$want_subset" = 1 ]; then
    # The smaller corpus for the "peak memory independent of corpus size" check: drivers/ alone,
    # 40% of the full tree's files (31,595 of 78,579) and 70% of its bytes (0.91 of 1.30 GB; it keeps
    # the largest files, the generated amdgpu register headers). A copy, so that it is a root of its own.
    if [ -f "$DIR/.linux-drivers.done" ]; then
        echo "== $SUBSET already there"
    else
        echo "== copying $TREE/drivers into $SUBSET"
        rm -rf "$SUBSET"
        cp -a "$TREE/drivers" "$SUBSET"
        touch "$DIR/.linux-drivers.done"
    fi
    if ! grep -q '^subset:' "$INFO"; then
        {
            echo "subset: $SUBSET (copy of drivers/)"
            echo "subset_files: $(find "$SUBSET" -type f | wc -l)"
            echo "subset_bytes: $(find "$SUBSET" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')"
        } >>"$INFO"
    fi
fi

cat "$INFO"
