#!/usr/bin/env bash
# The reference deployment in one command: Redis, three gateway instances and HAProxy in front of
# them (deploy/haproxy.cfg), on this machine. It runs in the foreground until Ctrl-C or SIGTERM,
# then stops HAProxy, the instances and its Redis, in that order. deploy/README.md explains it.
#
# What it starts is tied to it: each process gets SIGKILL if this script dies without cleaning up
# (Linux `setpriv --pdeathsig`), so nothing outlives it; and it stops when its own parent goes.
# An instance that dies is not restarted here (that is a supervisor's job): HAProxy sends its
# traffic to the other two.
set -euo pipefail

# Tied to what started it too: when its parent goes away (npm stopped with SIGTERM, a closed
# terminal, a test runner that died), it gets SIGTERM and stops everything.
if [ -z "${DEPLOY_TIED_TO_PARENT:-}" ] && setpriv --pdeathsig TERM true >/dev/null 2>&1; then
  DEPLOY_TIED_TO_PARENT=1 exec setpriv --pdeathsig TERM -- bash "$0" "$@"
fi
unset DEPLOY_TIED_TO_PARENT

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

: "${DEPLOY_LISTEN_HOST:=0.0.0.0}"
: "${DEPLOY_LISTEN_PORT:=8080}"
: "${DEPLOY_GATEWAY_HOST:=127.0.0.1}"
: "${DEPLOY_GW1_PORT:=3001}"
: "${DEPLOY_GW2_PORT:=3002}"
: "${DEPLOY_GW3_PORT:=3003}"
: "${DEPLOY_REDIS_PORT:=6380}"
: "${DEPLOY_STATE_DIR:=$root/deploy/.state}"
: "${DEPLOY_FROM_SOURCE:=0}"
export DEPLOY_LISTEN_HOST DEPLOY_LISTEN_PORT DEPLOY_GATEWAY_HOST DEPLOY_GW1_PORT DEPLOY_GW2_PORT DEPLOY_GW3_PORT DEPLOY_STATE_DIR

say() { printf 'deploy: %s\n' "$*"; }
fail() { printf 'deploy: %s\n' "$*" >&2; exit 1; }

command -v haproxy >/dev/null 2>&1 || fail "no haproxy on PATH (Debian/Ubuntu: apt-get install haproxy)"
mkdir -p "$DEPLOY_STATE_DIR/logs"
chmod 700 "$DEPLOY_STATE_DIR"

# Every instance must share the admin token and the master key that seals secrets at rest. Unless
# they are given, they are generated once and kept in the state folder, so a restart finds the
# secrets it sealed before.
secrets="$DEPLOY_STATE_DIR/secrets.env"
token_from=""
if [ -z "${MASTER_KEY:-}" ] || [ -z "${ADMIN_TOKEN:-}" ]; then
  if [ ! -f "$secrets" ]; then
    [ -n "${REDIS_URL:-}" ] && [ -z "${MASTER_KEY:-}" ] && fail "REDIS_URL is set but MASTER_KEY is not: give the key that sealed the secrets in that Redis (openssl rand -base64 32 for a new one)"
    (umask 077 && node -e "const c=require('node:crypto');console.log('MASTER_KEY='+c.randomBytes(32).toString('base64'));console.log('ADMIN_TOKEN='+c.randomBytes(24).toString('hex'))" >"$secrets")
    say "generated MASTER_KEY and ADMIN_TOKEN in $secrets"
  fi
  saved_master="$(sed -n 's/^MASTER_KEY=//p' "$secrets")"
  saved_admin="$(sed -n 's/^ADMIN_TOKEN=//p' "$secrets")"
  [ -z "${ADMIN_TOKEN:-}" ] && token_from="$secrets"
  : "${MASTER_KEY:=$saved_master}" "${ADMIN_TOKEN:=$saved_admin}"
fi
export MASTER_KEY ADMIN_TOKEN

# Ties a child to this script: SIGKILL when the script's process goes away (where setpriv can).
tied=()
if setpriv --pdeathsig KILL true >/dev/null 2>&1; then tied=(setpriv --pdeathsig KILL --); fi

# the processes started, by name (redis, gw1..gw3, haproxy); a name is removed when it exits
declare -A pid_of=()
started() { pid_of[$1]=$2; say "$1 pid=$2${3:+ $3}"; }
signal() { [ -n "${pid_of[$2]:-}" ] && kill "-$1" "${pid_of[$2]}" 2>/dev/null || true; }
reap() { [ -n "${pid_of[$1]:-}" ] && wait "${pid_of[$1]}" 2>/dev/null || true; }

stopping=0
stop_all() {
  [ "$stopping" = 1 ] && return
  stopping=1
  trap '' INT TERM
  say "stopping"
  # HAProxy first (no new requests; SIGUSR1 lets answers in flight finish), then the instances
  # (SIGTERM: they finish their requests), then Redis
  signal USR1 haproxy; reap haproxy
  for n in gw1 gw2 gw3; do signal TERM "$n"; done
  for n in gw1 gw2 gw3; do reap "$n"; done
  signal TERM redis; reap redis
  say "stopped"
}
trap 'stop_all; exit 0' INT TERM
trap 'stop_all' EXIT

http_ok() {
  node -e "fetch(process.argv[1],{signal:AbortSignal.timeout(2000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))" "$1"
}
redis_ok() { [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ]; }
# waits until the check passes; fails when the process is gone first (with the end of its log)
wait_until() {
  local name="$1" log="$DEPLOY_STATE_DIR/logs/$1.log"
  shift
  until "$@"; do
    if ! kill -0 "${pid_of[$name]}" 2>/dev/null; then
      tail -n 40 "$log" >&2 || true
      fail "$name exited before it was ready (log: $log)"
    fi
    sleep 0.2
  done
}

# Redis: the one REDIS_URL names, else a redis-server of its own (append-only file in the state folder)
if [ -z "${REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null 2>&1 || fail "no REDIS_URL and no redis-server on PATH (apt-get install redis-server)"
  mkdir -p "$DEPLOY_STATE_DIR/redis"
  "${tied[@]}" redis-server --bind 127.0.0.1 --port "$DEPLOY_REDIS_PORT" --dir "$DEPLOY_STATE_DIR/redis" \
    --appendonly yes --save "" >"$DEPLOY_STATE_DIR/logs/redis.log" 2>&1 &
  started redis $! "redis://127.0.0.1:$DEPLOY_REDIS_PORT"
  wait_until redis redis_ok "$DEPLOY_REDIS_PORT"
  REDIS_URL="redis://127.0.0.1:$DEPLOY_REDIS_PORT"
fi
export REDIS_URL STORE=redis TRUST_PROXY=true

# The instances: the compiled service (built first, as `npm start` does), or the sources under tsx
# with DEPLOY_FROM_SOURCE=1 (development and tests)
if [ "$DEPLOY_FROM_SOURCE" = 1 ]; then
  gateway=(node --import tsx src/main.ts)
else
  npm run --silent build >"$DEPLOY_STATE_DIR/logs/build.log" 2>&1 || { cat "$DEPLOY_STATE_DIR/logs/build.log" >&2; fail "npm run build failed"; }
  gateway=(node --max-semi-space-size=32 dist/main.js)
fi
for n in 1 2 3; do
  port_var="DEPLOY_GW${n}_PORT"
  PORT="${!port_var}" HOST="$DEPLOY_GATEWAY_HOST" "${tied[@]}" "${gateway[@]}" >"$DEPLOY_STATE_DIR/logs/gw$n.log" 2>&1 &
  started "gw$n" $! "http://$DEPLOY_GATEWAY_HOST:${!port_var}"
done
for n in 1 2 3; do
  port_var="DEPLOY_GW${n}_PORT"
  wait_until "gw$n" http_ok "http://$DEPLOY_GATEWAY_HOST:${!port_var}/readyz"
done

haproxy -c -q -f deploy/haproxy.cfg || fail "deploy/haproxy.cfg is not valid"
"${tied[@]}" haproxy -db -f deploy/haproxy.cfg >"$DEPLOY_STATE_DIR/logs/haproxy.log" 2>&1 &
started haproxy $! "admin socket $DEPLOY_STATE_DIR/haproxy.sock"
front_host="$DEPLOY_LISTEN_HOST"
[ "$front_host" = 0.0.0.0 ] && front_host=127.0.0.1
front="http://$front_host:$DEPLOY_LISTEN_PORT"
wait_until haproxy http_ok "$front/readyz"

say "ready at $front (logs in $DEPLOY_STATE_DIR/logs; Ctrl-C stops everything)"
if [ -n "$token_from" ]; then say "the admin token (ADMIN_TOKEN) is in $token_from"; fi

# Runs until stopped. An instance that dies is reported (HAProxy has taken it out); Redis or
# HAProxy gone, or no instance left, stops the deployment.
while :; do
  status=0
  wait -n || status=$?
  for name in "${!pid_of[@]}"; do
    kill -0 "${pid_of[$name]}" 2>/dev/null && continue
    say "$name (pid ${pid_of[$name]}) exited with status $status"
    unset "pid_of[$name]"
    case "$name" in haproxy | redis) fail "$name is gone: stopping the deployment" ;; esac
  done
  case " ${!pid_of[*]} " in *" gw"*) ;; *) fail "no instance is left: stopping the deployment" ;; esac
done
