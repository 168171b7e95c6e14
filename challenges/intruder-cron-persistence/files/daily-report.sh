#!/bin/bash
# Builds the daily sales report and leaves it for the reporting share.
set -eu
. /opt/reports/etc/report.env
mkdir -p /var/lib/reports
echo "$(date -Is) report for $REPORT_SITE (token ${REPORT_TOKEN:0:4}...)" >>/var/lib/reports/report.log
