#!/usr/bin/env bash
# Builds gq with the Maven wrapper and installs it under PREFIX (default: $PREFIX, else ~/.local):
#   PREFIX/lib/gq/bin/      gq (the native client, the command itself), gq-daemon and gq-generic
#                           (the launcher scripts: the daemon; gq daemon run, and gq mcp's JVM server
#                           where the daemon cannot serve its session) and gq-jdk.sh
#   PREFIX/lib/gq/daemon/   the daemon jar and its libraries (+ an AOT cache on JDK 25+, and
#                           sqlite-jdbc's native libraries for Linux in sqlite/ARCH/)
#   PREFIX/lib/gq/mcp/      gq mcp's jar and its libraries (the protocol's and core's jars)
#   PREFIX/lib/gq/gq-shim   the job shim
#   PREFIX/bin/gq           a link to PREFIX/lib/gq/bin/gq
#   PREFIX/share/man/man1/  gq.1 and gq-COMMAND.1, one manual page per command
#   PREFIX/share/bash-completion/completions/gq, PREFIX/share/zsh/site-functions/_gq and
#   PREFIX/share/fish/vendor_completions.d/gq.fish: the shell completions
#   PREFIX/share/gq/assistant/SKILL.md: how an AI assistant drives gq
#   PREFIX/share/doc/gq/    README.md and docs/ (guide.md, reference.md, troubleshooting.md, ...)
# Usage: ./install.sh [--prefix DIR] [--no-build]
set -euo pipefail

usage() {
  echo "usage: ./install.sh [--prefix DIR] [--no-build]   (default prefix: \$PREFIX, else ~/.local)"
}

src=$(readlink -f -- "${BASH_SOURCE[0]}")
src=${src%/*}
prefix=${PREFIX:-$HOME/.local}
build=1
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --no-build) build=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

# shellcheck source-path=SCRIPTDIR source=bin/gq-jdk.sh
. "$src/bin/gq-jdk.sh"
gq_find_java
export JAVA_HOME=${java%/bin/java}
# keep Maven itself quiet on new JDKs (jansi loads a native library, guice uses Unsafe)
if [[ -z ${MAVEN_OPTS-} ]]; then
  MAVEN_OPTS=--enable-native-access=ALL-UNNAMED
  if ((java_version >= 23)); then MAVEN_OPTS+=" --sun-misc-unsafe-memory-access=allow"; fi
  export MAVEN_OPTS
fi
if ((build)); then
  echo "building gq with $JAVA_HOME (half a minute; a first build also fetches its libraries) ..."
  build_log=$(mktemp)
  # one line per part as Maven reaches it; the whole output is kept for a build that fails
  if ! (cd "$src" && ./mvnw -B -ntp package -DskipTests) 2>&1 | tee "$build_log" |
    sed -un 's/^\[INFO\] Building \([^ ]*\) .*\[\([0-9]*\)\/\([0-9]*\)\]$/  [\2\/\3] \1/p'; then
    echo "install.sh: the build failed; its last lines (all of it: $build_log):" >&2
    tail -n 40 "$build_log" >&2
    exit 1
  fi
  rm -f "$build_log"
fi

daemon_jar=$src/actors/target/gq-daemon.jar
mcp_jar=$src/mcp/target/gq-mcp.jar
shim=$src/host/target/gq-shim
native=$src/client/target/gq
shell_files=$src/cli/target/shell
for f in "$native" "$daemon_jar" "$mcp_jar" "$shim" "$shell_files/completions/gq.bash" "$shell_files/man/man1/gq.1"; do
  [[ -f $f ]] || { echo "install.sh: $f is missing; build first: ./mvnw -q -B package -DskipTests" >&2; exit 1; }
done

mkdir -p "$prefix/lib" "$prefix/bin"
prefix=$(readlink -f -- "$prefix")
lib=$prefix/lib/gq
# build the new tree beside the old one, then swap, so a half-copied install never runs
stage=$(mktemp -d "$prefix/lib/.gq-install.XXXXXX")
trap 'rm -rf "$stage" "$stage.old"' EXIT
mkdir -p "$stage/bin" "$stage/daemon"
# the command is the native client; the launcher script stays beside it for gq daemon run and gq mcp's JVM server
install -m 0755 "$native" "$stage/bin/gq"
install -m 0755 "$src/bin/gq" "$stage/bin/gq-generic"
install -m 0755 "$src/bin/gq-daemon" "$stage/bin/"
install -m 0644 "$src/bin/gq-jdk.sh" "$stage/bin/"
install -m 0644 "$daemon_jar" "$src"/actors/target/lib/*.jar "$stage/daemon/"
# gq mcp's server in a JVM of its own (where the daemon cannot serve it): its jar and its libraries
mkdir -p "$stage/mcp"
install -m 0644 "$mcp_jar" "$src"/mcp/target/lib/*.jar "$stage/mcp/"
if [[ -d $src/actors/target/sqlite/org/sqlite/native/Linux ]]; then
  cp -R "$src/actors/target/sqlite/org/sqlite/native/Linux" "$stage/daemon/sqlite"
  chmod -R u=rwX,go=rX "$stage/daemon/sqlite"
fi
install -m 0755 "$shim" "$stage/gq-shim"
chmod 0755 "$stage"
if [[ -e $lib ]]; then mv "$lib" "$stage.old"; fi
mv "$stage" "$lib"
ln -sfn "$lib/bin/gq" "$prefix/bin/gq"

# Completions and manual pages (written from the command tree at build time), where bash-completion,
# fish and man look for a user's own (the ~/.local defaults); zsh needs the folder in its fpath.
share=$prefix/share
install -D -m 0644 "$shell_files/completions/gq.bash" "$share/bash-completion/completions/gq"
install -D -m 0644 "$shell_files/completions/_gq" "$share/zsh/site-functions/_gq"
install -D -m 0644 "$shell_files/completions/gq.fish" "$share/fish/vendor_completions.d/gq.fish"
mkdir -p "$share/man/man1"
rm -f -- "$share/man/man1/gq.1" "$share/man/man1"/gq-*.1 # pages of commands that are gone
install -m 0644 "$shell_files"/man/man1/*.1 "$share/man/man1/"
# the skill file that tells an AI assistant how to drive gq
install -D -m 0644 "$src/docs/assistant/SKILL.md" "$share/gq/assistant/SKILL.md"
# the guide and the reference, which the manual pages point to, with the rest of docs/ that they
# link to; docs -> . and the guide's ../README.md made README.md, so every link between them resolves
rm -rf -- "$share/doc/gq"
mkdir -p "$share/doc/gq"
cp -R -- "$src/docs/." "$share/doc/gq/"
install -m 0644 "$src/README.md" "$share/doc/gq/"
ln -sfn . "$share/doc/gq/docs"
sed -i 's#](\.\./README\.md#](README.md#g' "$share/doc/gq"/*.md
chmod -R u=rwX,go=rX "$share/doc/gq"

# the daemon too (JDK 25+): a training run of the installed daemon on temporary directories
if ((java_version >= 25)); then
  echo "making the daemon's AOT cache (a training run of about 15 s) ..."
  if ! "$lib/bin/gq-daemon" --train >/dev/null 2>&1; then
    rm -f "$lib/daemon/gq-daemon.aot"
    echo "note: could not make the daemon's AOT cache; gq works without it, the daemon starts slower"
  fi
fi

echo "installed gq in $lib"
echo "the gq command: $prefix/bin/gq"
echo "manual pages: man gq, man gq-submit, ... (in $share/man); shell completions for bash, zsh and fish"
echo "the guide and the reference: $share/doc/gq/guide.md, $share/doc/gq/reference.md"
if [[ ${SHELL-} == */zsh ]]; then
  echo "note: for zsh completion, add to ~/.zshrc before compinit: fpath=($share/zsh/site-functions \$fpath)"
fi
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it, e.g. echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc" ;;
esac
# A daemon already running: does it run the jar just installed? (It keeps its jar open, even one
# replaced since, so /proc shows its bytes; the build is reproducible, so equal bytes = same build.)
if status=$("$lib/bin/gq" daemon status 2>/dev/null); then
  pid=$(sed -n 's/^gq daemon is running (pid \([0-9]*\),.*/\1/p' <<<"$status")
  same=0
  for fd in /proc/"${pid:-0}"/fd/*; do
    case $(readlink -- "$fd" 2>/dev/null) in
      */gq-daemon.jar*) if cmp -s -- "$fd" "$lib/daemon/gq-daemon.jar"; then same=1; fi ;;
    esac
  done 2>/dev/null
  if ((!same)); then
    echo "note: the gq daemon running now (pid ${pid:-?}) runs another build; restart it to use this one: gq daemon restart"
  fi
fi
