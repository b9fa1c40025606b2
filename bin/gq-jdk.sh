# shellcheck shell=bash
# Shared by bin/gq and bin/gq-daemon (sourced, not run): finds a Java 21+ runtime and where the
# jars are, without starting a JVM or any program but readlink.

# Sets REPLY to the feature version (21, 25, ...) of the Java home $1, from its release file; 0 if unknown.
gq_java_version() {
  local line v
  REPLY=0
  [[ -r $1/release ]] || return 0
  while IFS= read -r line; do
    [[ $line == JAVA_VERSION=* ]] || continue
    v=${line#JAVA_VERSION=}
    v=${v//\"/}
    v=${v#1.}
    v=${v%%[!0-9]*}
    if [[ -n $v ]]; then REPLY=$v; fi
    return 0
  done <"$1/release"
}

# Sets java (path of the java program) and java_version to the first Java 21+ among JAVA_HOME,
# the java on PATH and /usr/lib/jvm/*; exits with a message when there is none. The answer is
# kept in ~/.cache/gq/java for the same JAVA_HOME and PATH: each program started here costs
# milliseconds, and gq starts on every command.
# shellcheck disable=SC2034 # java and java_version are for the scripts that source this file
gq_find_java() {
  local key="${JAVA_HOME-}|$PATH" cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/gq/java
  local k="" j="" v=""
  if [[ -r $cache ]]; then
    { IFS= read -r k && IFS= read -r j && IFS= read -r v; } <"$cache" || true
    # a JDK replaced since (its release file is newer) is looked at again
    if [[ $k == "$key" && -x $j && $v =~ ^[0-9]+$ && ! ${j%/bin/java}/release -nt $cache ]]; then
      java=$j
      java_version=$v
      return 0
    fi
  fi
  gq_search_java
  if [[ -d ${cache%/*} ]] || mkdir -p -- "${cache%/*}" 2>/dev/null; then
    printf '%s\n%s\n%s\n' "$key" "$java" "$java_version" 2>/dev/null >"$cache" || true
  fi
}

# shellcheck disable=SC2034 # java and java_version are for the scripts that source this file
gq_search_java() {
  local home dir onpath="" seen=""
  local -a homes=()
  if [[ -n ${JAVA_HOME-} ]]; then homes+=("$JAVA_HOME"); fi
  local IFS=:
  for dir in $PATH; do
    if [[ -x $dir/java && ! -d $dir/java ]]; then onpath=$dir/java; break; fi
  done
  unset IFS
  if [[ -n $onpath ]]; then
    if [[ -L $onpath ]]; then onpath=$(readlink -f -- "$onpath"); fi
    homes+=("${onpath%/bin/java}")
  fi
  homes+=(/usr/lib/jvm/*25* /usr/lib/jvm/*21* /usr/lib/jvm/*)
  for home in "${homes[@]}"; do
    [[ -x $home/bin/java ]] || continue
    gq_java_version "$home"
    if ((REPLY >= 21)); then
      java=$home/bin/java
      java_version=$REPLY
      return 0
    fi
    seen+=" $home (${REPLY/#0/unknown version})"
  done
  echo "gq: needs Java 21 or newer and found none (looked at JAVA_HOME, java on PATH, /usr/lib/jvm:${seen:- nothing}); install a JDK 21+ or set JAVA_HOME to one" >&2
  exit 1
}

# Sets gq_root and gq_checkout (1 when $1, the scripts' folder, is bin/ of a source checkout; 0 when
# it is PREFIX/lib/gq/bin of an installed copy).
gq_layout() {
  gq_root=${1%/*}
  if [[ -f $gq_root/pom.xml ]]; then gq_checkout=1; else gq_checkout=0; fi
}

# Exits with "$1 is not built" and how to build it (or reinstall it).
gq_not_built() {
  if ((gq_checkout)); then
    echo "$1 is not built; run: cd $gq_root && ./mvnw -q package -DskipTests" >&2
  else
    echo "$1 is missing from $gq_root; reinstall gq with its install.sh" >&2
  fi
  exit 1
}
