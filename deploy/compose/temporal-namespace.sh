#!/bin/sh
# Registers the namespace and the application's search attributes once the server answers
# (run by the `temporal-namespace` service, temporalio/admin-tools). Safe to run again.
set -eu
address="${TEMPORAL_ADDRESS:?TEMPORAL_ADDRESS is required}"
namespace="${TEMPORAL_NAMESPACE:-default}"

retry() { # retry WHAT COMMAND…: up to 60 tries, 2 s apart
  what="$1"
  shift
  tries=0
  until "$@"; do
    tries=$((tries + 1))
    [ "$tries" -lt 60 ] || { echo "temporal-namespace: $what failed 60 times" >&2; exit 1; }
    sleep 2
  done
}

healthy() { temporal operator cluster health --address "$address" >/dev/null 2>&1; }
retry "waiting for $address to be healthy" healthy

namespace_ready() {
  temporal operator namespace describe --address "$address" --namespace "$namespace" >/dev/null 2>&1 \
    || temporal operator namespace create --address "$address" --namespace "$namespace" --retention 7d
}
retry "creating namespace $namespace" namespace_ready

# The search attributes every session, job, approval and rollback carries
# (docs/platform-contract.md). A new namespace reaches every server cache within seconds.
search_attributes() {
  for name in EvolutionScopeKey EvolutionSkillId EvolutionRevisionId EvolutionKind; do
    list="$(temporal operator search-attribute list --address "$address" --namespace "$namespace")" || return 1
    echo "$list" | grep -q "$name" \
      || temporal operator search-attribute create --address "$address" --namespace "$namespace" --name "$name" --type Keyword || return 1
  done
}
retry "registering the search attributes in $namespace" search_attributes
echo "temporal-namespace: $namespace is ready with its search attributes"
