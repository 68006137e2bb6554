#!/usr/bin/env bash
# A run across emulated nodes that cannot share memory: each node in a network namespace of its own, the nodes
# joined by veth pairs to a bridge (in a namespace of its own too), and each PE in IPC, PID and mount namespaces of
# its own, so that UCX, left to choose its transports (UCX_TLS unset: shared memory, CMA, TCP), can reach another
# node only over TCP across the bridge, as between machines. (A network namespace alone would not stop UCX's shared
# memory transports: they find their peers by PID and by IPC keys.) The PEs of a node still share their node's
# memory object, which oshrun hands them as a descriptor.
#
#   netns_smoke.sh OSHRUN NODES NPES PROGRAM [ARGS...]
#
# Needs root (network namespaces), ip (iproute2) and unshare (util-linux): without them it says why and exits 77,
# which ctest reports as skipped. Its status is oshrun's.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OSHRUN NODES NPES PROGRAM [ARGS...]" >&2; exit 2; }
oshrun=$1 nodes=$2 npes=$3
shift 3
if [ "$(id -u)" != 0 ]; then echo "netns_smoke: needs root (network namespaces): skipped"; exit 77; fi
for tool in ip unshare; do
  command -v "$tool" >/dev/null || { echo "netns_smoke: no $tool (Debian: iproute2, util-linux): skipped"; exit 77; }
done

# Names unique to this run (interface names have at most 15 characters).
tag=ls$$
sw=${tag}sw
cleanup() {
  for ((k = 0; k < nodes; ++k)); do ip netns del "${tag}n$k" 2>/dev/null || true; done
  ip netns del "$sw" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$sw"
ip -n "$sw" link add br0 type bridge
ip -n "$sw" link set br0 up
for ((k = 0; k < nodes; ++k)); do
  ns=${tag}n$k
  ip netns add "$ns"
  ip link add "${tag}v$k" type veth peer name "${tag}p$k"
  ip link set "${tag}v$k" netns "$ns"
  ip link set "${tag}p$k" netns "$sw"
  ip -n "$sw" link set "${tag}p$k" master br0 up
  ip -n "$ns" addr add "10.213.0.$((k + 1))/24" dev "${tag}v$k"
  ip -n "$ns" link set "${tag}v$k" up
  ip -n "$ns" link set lo up
done

status=0
${NETNS_SMOKE_TRACE:-} "$oshrun" --nodes "$nodes" -np "$npes" --timeout 120 -x UCX_TLS=all \
  --node-prefix "ip netns exec ${tag}n{node} unshare --ipc --pid --mount --fork --kill-child" "$@" || status=$?
exit "$status"
