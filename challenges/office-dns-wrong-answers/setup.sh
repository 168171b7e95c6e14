#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment by the platform,
# fed on stdin: never stored in the container). Writes a random inventory of the office's hosts
# (names and addresses) to /etc/office/hosts, then picks one way ns01's dnsmasq answers the
# clients wrongly or not at all (FAULTLINE_FAULT forces one, for tests), with a random file name
# for the change that did it. Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(stale_record loopback_only hosts_path_typo wrong_port)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
hosts=/etc/office/hosts

# The inventory: 8 to 12 of the office's machines on a random 10.x.y.0/22.
net="10.$((20 + RANDOM % 200)).$((4 * (RANDOM % 60)))"
mapfile -t names < <(shuf -n $((8 + RANDOM % 5)) -e wiki git ci intranet mail printer-2f printer-3f files \
  backup vpn grafana jira payroll crm build-01 build-02 nas ldap timeclock badge-reader chat)
{
  echo "# Exported from the inventory on $(date -d '-6 hours' '+%Y-%m-%d %H:%M'). Do not edit: the next export overwrites it."
  i=0
  for n in "${names[@]}"; do
    echo "$net.$((10 + i * 7 + RANDOM % 6)) $n.corp.internal $n"
    i=$((i + 1))
  done
} >"$hosts"
# Every name of the inventory is asked by the check; the fault touches the third.
ip_of() { awk -v n="$1.corp.internal" '$2 == n {print $1}' "$hosts"; }
victim=${names[2]}
records=$(awk '!/^#/ && NF {printf "%s%s=%s", sep, $2, $1; sep = " "}' "$hosts")

# Earlier local additions that did no harm (cache tuning, asynchronous logging).
for decoy in $(shuf -n $((1 + RANDOM % 2)) -e cache neg async); do
  d=$(date -d "-$((20 + RANDOM % 300)) days" +%Y%m%d)
  case $decoy in
    cache) printf '# More cache for the office (%s)\ncache-size=%s\n' "$d" "$(shuf -n1 -e 1000 2000 4000)" >"/etc/dnsmasq.d/$(shuf -n1 -e cache-size "$d-cache" cache-tuning).conf" ;;
    neg) printf '# Forget negative answers sooner (%s)\nneg-ttl=%s\n' "$d" "$(shuf -n1 -e 30 60 120)" >"/etc/dnsmasq.d/$(shuf -n1 -e neg-ttl "$d-negative-cache").conf" ;;
    async) printf '# Log without slowing answers down (%s)\nlog-async=%s\n' "$d" "$(shuf -n1 -e 10 25 50)" >"/etc/dnsmasq.d/$(shuf -n1 -e log-async "$d-log-async").conf" ;;
  esac
done

tag=$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')
day=$(date -d "-$((1 + RANDOM % 20)) days" +%Y%m%d)
case "$fault" in
  stale_record)
    # The cut-over test for a migration: the old server's address was never taken out again.
    file=$(shuf -n1 -e "cutover-$victim-$day" "migration-$victim-$tag" "$day-$victim-move" "test-$victim-$tag").conf
    old="10.$((20 + RANDOM % 200)).$((RANDOM % 250)).$((10 + RANDOM % 200))"
    printf '# %s moves to the new rack: point clients at the new box during the cut-over test\nhost-record=%s.corp.internal,%s\n' \
      "$victim" "$victim" "$old" >"/etc/dnsmasq.d/$file" ;;
  loopback_only)
    file=$(shuf -n1 -e "hardening-$tag" "$day-local-only" "cis-$tag" "secure-listen-$day").conf
    printf '# Hardening (ticket SEC-%s): do not answer on every interface\nlisten-address=127.0.0.1\nbind-interfaces\n' "$tag" >"/etc/dnsmasq.d/$file" ;;
  wrong_port)
    file=$(shuf -n1 -e "bind9-migration-$tag" "$day-side-by-side" "port-test-$tag").conf
    printf '# Run next to the old bind9 while we compare answers\nport=%s\n' "$(shuf -n1 -e 5353 5300 1053 8053 10053)" >"/etc/dnsmasq.d/$file" ;;
  hosts_path_typo)
    file=/etc/dnsmasq.conf
    sed -i "s|^addn-hosts=/etc/office/hosts\$|addn-hosts=$(shuf -n1 -e /etc/office/host /etc/office/hosts.txt /etc/office/hosts.conf /etc/offices/hosts)|" /etc/dnsmasq.conf ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac

service dnsmasq start >/dev/null 2>&1 || true
# The office's clients kept asking since the change.
self=$(hostname -i | awk '{print $1}')
[ "$fault" = wrong_port ] || for n in "${names[0]}" "$victim" "${names[1]}" "$victim"; do
  dig +short +time=1 +tries=1 @127.0.0.1 "$n.corp.internal" >/dev/null 2>&1 || true
done
printf 'cd /etc/dnsmasq.d\nls\nservice dnsmasq restart\ndig @localhost %s.corp.internal\nexit\n' "$victim" >/root/.bash_history

# Make sure the fault is what it should be: another host does not get the inventory's answer.
got=$(dig +short +time=1 +tries=1 @"$self" "$victim.corp.internal" 2>/dev/null | sort | tr '\n' ' ' || true)
if [ "$got" = "$(ip_of "$victim") " ]; then echo "setup: fault $fault left the answers right" >&2; exit 1; fi
# The configuration files a written answer could name: dnsmasq.conf and the local additions.
files=$(ls /etc/dnsmasq.conf /etc/dnsmasq.d/*.conf | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')
case $file in /*) ;; *) file=/etc/dnsmasq.d/$file ;; esac
printf '{"fault":"%s","file":"%s","files":%s,"records":"%s","hosts_sha":"%s"}\n' "$fault" "$file" "$files" "$records" "$(sha256sum "$hosts" | cut -d' ' -f1)"
