#!/bin/sh
# Restarts this machine's app processes one at a time, so that nginx always
# has one to send requests to (docs/deploy.md, ADR 033):
#   deploy/rolling-restart.sh              every running ojai-site@PORT
#   deploy/rolling-restart.sh 3001 3002    these instances
# Each gets SIGTERM (systemctl restart: it drains, exits, starts again, while
# its socket, ojai-site@PORT.socket, keeps connections waiting for it; ADR
# 093); the next waits until this one answers /healthz and 4 s more. A
# process started without its socket refuses connections while it restarts,
# and nginx (fail_timeout 2 s, on a clock of whole seconds) sends it requests
# again only by then.
# With processes on several machines, run it on one machine after the other.
set -eu
HEALTH_HOST=${HEALTH_HOST:-127.0.0.1}
SETTLE_SECONDS=${SETTLE_SECONDS:-4}

if [ "$#" -gt 0 ]; then
  ports="$*"
else
  ports=$(systemctl list-units --plain --no-legend --state=running 'ojai-site@*.service' |
    sed -n 's/^ojai-site@\([0-9][0-9]*\)\.service.*/\1/p')
fi
[ -n "$ports" ] || { echo "no ojai-site@PORT instance is running" >&2; exit 1; }

for port in $ports; do
  echo "restarting ojai-site@$port"
  systemctl restart "ojai-site@$port"
  tries=0
  until curl -fs -o /dev/null --max-time 2 "http://$HEALTH_HOST:$port/healthz"; do
    tries=$((tries + 1))
    if [ "$tries" -ge 60 ]; then
      echo "ojai-site@$port does not answer /healthz after 30 s: stopping here (journalctl -u ojai-site@$port)" >&2
      exit 1
    fi
    sleep 0.5
  done
  sleep "$SETTLE_SECONDS"
done
echo "restarted:" $ports
