#!/bin/bash
# Injects the fault when a deployment starts (run as root inside the deployment, fed on stdin,
# never stored there). A leftover wrapper shadows one of the system's tools (random: host, tar,
# perl, scp) in a root login shell. Where it sits is the variant (FAULTLINE_FAULT forces it):
#   local_bin    a script in /usr/local/bin or /usr/local/sbin, already on PATH;
#   profile_d    a vendor directory under /opt put first on PATH by an /etc/profile.d snippet;
#   root_bashrc  a directory in root's home put first on PATH by /root/.bashrc.
# Names of the vendor, snippet and directories are random. The ticket in /root names the tool.
# Prints the values the check needs as JSON on its last line.
set -euo pipefail
faults=(local_bin profile_d root_bashrc)
fault=${FAULTLINE_FAULT:-${faults[RANDOM % ${#faults[@]}]}}
tools=(host tar perl scp)
tool=${tools[RANDOM % ${#tools[@]}]}
vendors=(netpulse acme-agent dbtoolkit logshipper perfkit secscan)
vendor=${vendors[RANDOM % ${#vendors[@]}]}
who=$(shuf -n1 -e "migration to dc2" "vendor onboarding" "PCI audit" "the old proxy rollout" "a debugging session")

case "$tool" in
  host) body='exec /usr/bin/host -W 1 "$@" 10.255.0.53'
        symptom='host times out on every name (";; connection timed out; no servers could be reached"), while getent hosts works' ;;
  tar) body='exec /usr/bin/tar --exclude-from=/etc/backup/tar-excludes "$@"'
       symptom='tar fails at once with "/etc/backup/tar-excludes: Cannot open"' ;;
  perl) body='exec /opt/perl5.26/bin/perl "$@"'
        symptom='perl says "No such file or directory", yet /usr/bin/perl is there' ;;
  scp) body='exec /usr/bin/scp -o ProxyJump=bastion.dc1.corp.invalid "$@"'
       symptom='scp fails at once with "ssh: Could not resolve hostname bastion.dc1.corp.invalid"' ;;
esac

case "$fault" in
  local_bin)
    dir=$(shuf -n1 -e /usr/local/bin /usr/local/sbin); startup="" ;;
  profile_d)
    dir=/opt/$vendor/bin; startup=/etc/profile.d/$(shuf -n1 -e "$vendor" "zz-$vendor" "$vendor-env" "00-$vendor").sh
    printf '# %s: put the agent tools first (added during %s)\nexport PATH="%s:$PATH"\n' "$vendor" "$who" "$dir" >"$startup" ;;
  root_bashrc)
    sub=$(shuf -n1 -e bin .local/bin tools scripts "$vendor/bin"); dir=/root/$sub; startup=/root/.bashrc
    printf '\n# %s\nexport PATH="$HOME/%s:$PATH"\n' "$who" "$sub" >>"$startup" ;;
  *) echo "unknown fault: $fault" >&2; exit 2 ;;
esac
mkdir -p "$dir"
wrapper=$dir/$tool
printf '#!/bin/sh\n# %s wrapper (%s). Remove when done.\n%s\n' "$tool" "$who" "$body" >"$wrapper"
chmod 0755 "$wrapper"
# Other harmless tools of the same kind beside it, as such directories have (this host's agent
# id in them): they are the vendor's, not the fault, and stay.
agent=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
for other in "$vendor-status" "$vendor-ctl"; do
  printf '#!/bin/sh\necho "%s: ok (agent %s)"\n' "$other" "$agent" >"$dir/$other"; chmod 0755 "$dir/$other"
done
keep="$dir/$vendor-status $dir/$vendor-ctl"
keep_digest=$(for f in $keep; do printf '%s\0' "$f"; cat "$f"; done | sha256sum | cut -d' ' -f1)
cat >/root/TICKET <<TXT
INC-$((4000 + RANDOM % 5000))  ops01: $tool broken for root
Reported by: release team
Since yesterday, in a root shell on ops01, $symptom.
The release runbook needs it. Same command works on ops02.
Please find out why $tool misbehaves only here, fix it, and tell us which file(s) caused it.
TXT
# The written answer's candidates: every place such a wrapper could sit (for every vendor and
# home directory this setup picks from), the tools beside it, and every start-up file a login
# shell reads or that could have been written. Where no start-up file is to blame (local_bin),
# the wrapper is the whole cause.
wrappers=(/usr/local/bin/"$tool" /usr/local/sbin/"$tool" "$dir/$vendor-status" "$dir/$vendor-ctl")
startups=(/etc/profile /etc/bash.bashrc /etc/environment /root/.profile /root/.bashrc /root/.bash_profile /root/.bash_login
  /etc/profile.d/bash_completion.sh /etc/profile.d/faultline.sh)
for v in "${vendors[@]}"; do
  wrappers+=(/opt/"$v"/bin/"$tool" /root/"$v"/bin/"$tool")
  startups+=(/etc/profile.d/"$v".sh /etc/profile.d/zz-"$v".sh /etc/profile.d/"$v"-env.sh /etc/profile.d/00-"$v".sh)
done
for sub in bin .local/bin tools scripts; do wrappers+=(/root/"$sub"/"$tool"); done
# The files as the fault left them (the check tells an untouched fault from a changed one).
wsha=$(sha256sum "$wrapper" | cut -d' ' -f1)
ssha=$([ -z "$startup" ] || sha256sum "$startup" | cut -d' ' -f1)
printf '{"fault":"%s","tool":"%s","wrapper":"%s","startup":"%s","cause":"%s","wrapper_sha":"%s","startup_sha":"%s","keep":"%s","keep_digest":"%s","wrappers":"%s","startups":"%s"}\n' \
  "$fault" "$tool" "$wrapper" "$startup" "${startup:-$wrapper}" "$wsha" "$ssha" "$keep" "$keep_digest" "${wrappers[*]}" "${startups[*]}"
