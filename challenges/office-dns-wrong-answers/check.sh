#!/bin/bash
# Grading: runs in the grader beside ns01 (docs/decisions/008-grading-threat-model.md), never
# inside it, and executes nothing of ns01's. It asks:
#   what the clients see: from another host of the office network, ns01 answers the inventory's
#     address, and only it, for names of corp.internal, over UDP and TCP;
#   who answers: port 53 is held only by the system's dnsmasq, started the usual way (as the user
#     dnsmasq) after the last change of its configuration; no other UDP socket on port 53;
#   what was repaired: the inventory's export is untouched and dnsmasq.conf is the original;
#   the written answer names the file that held the fault.
# Environment: FL_TARGET, FL_RECORDS ("name=address ..."), FL_HOSTS_SHA, FL_FILE (setup.sh).
# Exit 0 = fixed; stdout = feedback.
ask() { # ask NAME udp|tcp: the sorted A records, or "!error"
  local out
  if [ "$2" = tcp ]; then out=$(dig +tcp +time=2 +tries=1 @"$FL_TARGET" "$1" A 2>&1); else out=$(dig +notcp +time=2 +tries=1 @"$FL_TARGET" "$1" A 2>&1); fi
  case "$out" in
    *"connection refused"*|*"Connection refused"*) echo '!refused'; return ;;
    *"timed out"*|*"no servers could be reached"*) echo '!timeout'; return ;;
  esac
  local status; status=$(sed -n 's/.*status: \([A-Z]*\),.*/\1/p' <<<"$out" | head -n 1)
  [ "$status" = NOERROR ] || { echo "!${status:-error}"; return; }
  awk '$4 == "A" && $0 !~ /^;/ {print $5}' <<<"$out" | sort | tr '\n' ' ' | sed 's/ $//'
}
for pair in $FL_RECORDS; do
  name=${pair%%=*}; want=${pair#*=}
  for proto in udp tcp; do
    got=$(ask "$name" "$proto")
    case "$got" in
      '!timeout') refuse "ns01 does not answer DNS queries from other hosts of the office network ($proto, port 53): the query for $name timed out." ;;
      '!refused') refuse "Nothing on ns01 accepts DNS queries on port 53 from other hosts ($proto): the query for $name was refused." ;;
      '!NXDOMAIN') refuse "ns01 answers \"no such name\" (NXDOMAIN) for $name, which is in the office's inventory." ;;
      '!'*) refuse "ns01 answers the query for $name with ${got#!} ($proto)." ;;
      "$want") ;;
      *' '*) refuse "ns01 gives $name more than one address ($proto): clients are sent to one of them at random, and only the inventory's is right." ;;
      *) refuse "ns01 gives $name an address the office's inventory does not have for it ($proto)." ;;
    esac
  done
done

# Who answers: dnsmasq from the system, as the user dnsmasq, from the configuration on disk.
configs=(--config /etc/dnsmasq.conf --config /etc/dnsmasq.d --config /etc/office)
snippets=$(fl ls /etc/dnsmasq.d) || refuse "$snippets"
for f in $snippets; do configs+=(--config "/etc/dnsmasq.d/$f"); done
hosts_file=$(fl ls /etc/office) || refuse "$hosts_file"
for f in $hosts_file; do configs+=(--config "/etc/office/$f"); done
pids=$(fl service 53 /usr/sbin/dnsmasq --argv '["/usr/sbin/dnsmasq"]' "${configs[@]}") || refuse "$pids"
for pid in $pids; do
  user=$(fl user "$pid") || refuse "$user"
  [ "$user" = dnsmasq ] || refuse "dnsmasq runs as $user: it must drop to its own user, dnsmasq, as its configuration says."
done
# UDP: every socket on port 53 has its TCP twin from dnsmasq (a stand-in bound to one address
# would take the office's UDP queries to that address away from it).
sockets() { # sockets TABLE STATE: "address" of each socket on port 53 in that state
  local table
  for table in "$1" "${1}6"; do
    fl read "/proc/1/net/$table" 2>/dev/null | awk -v st="$2" 'NR > 1 && $4 == st {split($2, a, ":"); if (a[2] == "0035") print a[1]}'
  done | sort
}
[ "$(sockets udp 07)" = "$(sockets tcp 0A)" ] || refuse "Something other than dnsmasq listens for DNS queries on UDP port 53 of ns01."

# What was repaired.
sum=$(fl sha256 /etc/office/hosts) || refuse "/etc/office/hosts cannot be read: $sum"
[ "$sum" = "$FL_HOSTS_SHA" ] || refuse "/etc/office/hosts is the inventory's export and was right: it must stay exactly as exported."
conf=$(fl normalized /etc/dnsmasq.conf) || refuse "$conf"
[ "$conf" = "$(sed 's/#.*//' /etc/dnsmasq.conf | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//')" ] ||
  refuse "dnsmasq answers right, but /etc/dnsmasq.conf is not ns01's own configuration any more: repair the fault rather than rewriting it."

# The written answer: which file held the fault.
if ! answer_mentions "$FL_FILE" && ! answer_mentions "/etc/$FL_FILE" && ! answer_mentions "/etc/dnsmasq.d/$FL_FILE"; then
  refuse "dnsmasq answers the office right again. Your answer does not name the configuration file that caused the wrong answers: which file was it?"
fi
echo "ns01 answers the office's clients from the inventory again (UDP and TCP), and you found the file at fault."
