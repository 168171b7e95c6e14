#!/bin/bash
# Reference fix (CI runs it between a failing and a passing check). As a person would: read the
# ticket, ask a login shell what the tool resolves to, find which start-up file put that
# directory on PATH, take both away and check again.
set -uo pipefail
cat /root/TICKET
tool=$(sed -nE '1s/.*ops01: ([A-Za-z0-9]+) broken.*/\1/p' /root/TICKET)
bash -lc "type -a $tool; echo \$PATH"
found=$(bash -lc "command -v $tool")
real=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$tool")
echo "login shell runs $found, the system's is $real"
[ "$found" != "$real" ] || { echo "nothing shadows $tool"; exit 1; }
cat "$found"
dir=$(dirname "$found")
cause=""
case "$dir" in /usr/local/bin|/usr/local/sbin) files=() ;; *) files=(/etc/profile /etc/bash.bashrc /etc/profile.d/*.sh /root/.profile /root/.bashrc) ;; esac
# Which start-up file puts that directory on PATH ($HOME spelled out or not)?
short=${dir#/root/}
for f in "${files[@]}"; do
  if grep -qE "PATH=.*(${dir}|\\\$HOME/${short}|~/${short})(:|\"|$)" "$f" 2>/dev/null; then
    echo "$f puts $dir on PATH:"; grep -n PATH "$f"
    cause=$f
    case "$f" in
      /etc/profile.d/*) rm -f "$f" ;;
      *) sed -i -E "\\#PATH=.*(${dir}|\\\$HOME/${short}|~/${short})(:|\"|$)#d" "$f" ;;
    esac
  fi
done
rm -f "$found"
hash -r
bash -lc "type -a $tool"
after=$(bash -lc "command -v $tool")
[ "$after" = "$real" ] || { echo "still $after"; exit 1; }
if [ -n "$cause" ]; then
  echo "ANSWER: $tool ran the wrapper $found instead of $real, because $cause put $dir first on the root PATH. Removed both."
else
  echo "ANSWER: $tool ran the wrapper $found (earlier on PATH) instead of $real. Removed it."
fi
