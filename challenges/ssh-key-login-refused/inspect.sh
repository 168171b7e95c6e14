# Before the copy of db02 boots (nothing of the player's runs): ask sshd itself how it reads its
# configuration (every Include, Match and default resolved) for a login by each service account
# from another host of the network. The grader compares this with the answer sshd gave for the
# configuration as installed (/usr/lib/sshd-installed/sshd-T.txt, made when the image was built).
mkdir -p /run/sshd
for u in backup-pull ci-runner reportsync etl-loader; do
  echo "== $u"
  trusted sshd -T -C "user=$u,host=backup01,addr=198.51.100.7,laddr=198.51.100.2,lport=22" 2>&1
done
