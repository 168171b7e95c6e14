# Before the copy boots: what its firewall will load. `service firewall start` (pristine, checked)
# runs iptables-restore on /etc/iptables/rules.v4 at boot; here the image's own iptables-restore
# loads the same file the same way, and iptables-save gives its account of the rules for
# check.sh to judge (the boot then loads the same file again).
rules=/etc/iptables/rules.v4
if err=$(trusted xtables-nft-multi iptables-restore --test <"$rules" 2>&1) && err=$(trusted xtables-nft-multi iptables-restore <"$rules" 2>&1); then
  echo "firewall-load: ok"
  trusted xtables-nft-multi iptables-save
else
  echo "firewall-load: failed"
  head -n 3 <<<"${err:-$rules cannot be read}"
fi
