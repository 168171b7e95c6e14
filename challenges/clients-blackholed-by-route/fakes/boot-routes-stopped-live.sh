#!/bin/bash
# Fake (boot class): take every static route and rule out of the live tables (the clients get through), and
# leave the files as they are for the next boot.
service static-routes stop
