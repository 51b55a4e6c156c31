#!/bin/sh
# Copies project $1 (p1..p4, probes) to $2/$1 as a fresh git repository with one commit. Usage: setup.sh p1 /tmp/nu13
set -e
rm -rf "$2/$1" && mkdir -p "$2" && cp -r "$(dirname "$0")/$1" "$2/$1" && cd "$2/$1"
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm init
