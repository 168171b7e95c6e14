#!/bin/bash
# Fake (acl class), after the reference fix: give the team back write access to the account's home
# with an ACL. sshd's StrictModes reads only the mode bits, and a mask on the account's own private
# group looks harmless to it: the backup server gets in, while another account can now replace the
# keys.
other=$(ls /home | grep -vx "$user" | head -1)
chmod 0775 "$home"
setfacl -m "u:$other:rwx" "$home"
service ssh restart
sleep 0.5
