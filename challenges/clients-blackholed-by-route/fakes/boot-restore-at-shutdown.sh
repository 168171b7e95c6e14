#!/bin/bash
# Fake (boot class): repair the files and the live tables as the reference does, but keep the
# culprit's lines and a shutdown script (runlevel 6, as sysv-rc runs it on the way down to a
# reboot) that puts them back into /etc/network/routes.d. Live and on a copy of today's disk,
# booted, everything is right; after the next real reboot the front ends are cut off again.
mkdir -p /var/backups/routes.d && cp -p /etc/network/routes.d/*.conf /var/backups/routes.d/
set -uo pipefail
dir=/etc/network/routes.d
cidr=$(ip -4 -o addr show scope global | awk '{print $4; exit}'); self=${cidr%/*}
ip route show; ip rule show; ss -ltn
ip2int() { local IFS=.; set -- $1; echo $((($1 << 24) + ($2 << 16) + ($3 << 8) + $4)); }
int2ip() { echo "$(($1 >> 24 & 255)).$(($1 >> 16 & 255)).$(($1 >> 8 & 255)).$(($1 & 255))"; }
bits=${cidr#*/}; size=$((1 << (32 - bits))); base=$(($(ip2int "$self") & ~(size - 1) & 0xffffffff))
culprit=""
# Every neighbour of the network, as the kernel would route a reply to it.
for i in $(seq 1 $((size - 2))); do
  peer=$(int2ip $((base + i))); [ "$peer" = "$self" ] && continue
  decision=$(ip route get "$peer" 2>&1 | head -n 1)
  case "$decision" in
    "$peer dev eth0 src $self"*) continue ;;
  esac
  echo "a reply to $peer goes: $decision"
  # Which line of which file does that? Routes covering the peer, and rules for its network.
  for f in "$dir"/*.conf; do
    while read -r line; do
      prefix=$(grep -oE '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/[0-9]+' <<<"$line" | head -n 1)
      [ -n "$prefix" ] || continue
      p=${prefix%/*}; l=${prefix#*/}; m=$(( l == 0 ? 0 : (0xffffffff << (32 - l)) & 0xffffffff ))
      if [ $(( $(ip2int "$peer") & m )) = $(( $(ip2int "$p") & m )) ] && [ "$l" -ge "$bits" ]; then
        echo "$f: $line"
        grep -vxF "$line" "$f" >/tmp/routes.new; cat /tmp/routes.new >"$f"; rm -f /tmp/routes.new
        # Undo it in the live tables too.
        ip $(sed 's/^\(route\|rule\) add /\1 del /' <<<"$line") 2>/dev/null || true
        culprit=$f
      fi
    done < <(grep -v '^[[:space:]]*\(#\|$\)' "$f")
  done
done
service static-routes start
cat >/etc/rc6.d/K01routes-restore <<'SH'
#!/bin/sh
# Put the routes files back as they were imported (NET-4711).
[ "$1" = stop ] || exit 0
cp -p /var/backups/routes.d/*.conf /etc/network/routes.d/
SH
chmod 0755 /etc/rc6.d/K01routes-restore
ls -l /etc/rc6.d
