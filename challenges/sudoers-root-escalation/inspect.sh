# Asks sudo itself what every account may run, on the copy of ops03's disk before it boots (no
# process of the player's runs there). First the digest of every file sudo reads to decide (its
# plugin configuration, the rules, the accounts and their groups), printed before sudo runs: a
# plugin or a group plugin named in a changed file could print anything after that, and the check
# trusts sudo's answers only when these files are the ones it expects.
files=()
for f in /etc/sudo.conf /etc/sudoers /etc/nsswitch.conf /etc/passwd /etc/group /etc/sudoers.d/*; do
  if [ -f "$f" ] && [ ! -L "$f" ]; then files+=("$f"); else printf 'file %s other\n' "$f"; fi
done
while read -r sum path; do printf 'file %s %s\n' "$path" "$sum"; done < <(trusted sha256sum -- "${files[@]}")
echo "files end"
# Then sudo's own view of each account, as `sudo -l -U` lists it (bash builtins around it: one
# program start per account).
while IFS=: read -r user _; do
  printf 'user %s\n' "$user"
  while IFS= read -r line; do printf '| %s\n' "$line"; done < <(trusted sudo -l -U "$user" 2>&1)
done </etc/passwd
echo "users end"
