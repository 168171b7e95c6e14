Local additions to ns01's dnsmasq, one *.conf file per change, named after the change.
dnsmasq reads every *.conf file here (see conf-dir in /etc/dnsmasq.conf); this README is ignored.
