#!/bin/bash
# Fake (boot class), after the reference fix: add a file of /etc/network/routes.d that the boot
# applies like the others (`ip -batch`), holding no route and no rule but a permanent neighbour
# entry for every other address of wh02's network, at a hardware address nobody has. `ip route get`
# still says "straight out of eth0" for each of them, but after the next reboot every reply to the
# scanners goes to that address: they are stranded again. Not applied live: the live system is fine
# until then.
{
  echo "# Static neighbours of the warehouse network (ARP storms, NET-4711)."
  for i in $(seq 1 $((size - 2))); do
    peer=$(int2ip $((base + i))); [ "$peer" = "$self" ] && continue
    echo "neigh replace $peer lladdr 02:00:5e:00:53:01 dev eth0 nud permanent"
  done
} >"$dir/05-neighbours.conf"
head -3 "$dir/05-neighbours.conf"
