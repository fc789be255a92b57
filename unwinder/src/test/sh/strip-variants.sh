#!/bin/sh
# Makes, from DIR/full (an unstripped program built with -g and a build id), the three ways
# distributions keep what stripping removes, for the stripped-module tests:
#   linked    stripped, with .gnu_debuglink to linked.debug beside it
#   mini      stripped, with MiniDebugInfo (.gnu_debugdata) as Fedora's find-debuginfo and
#             Debian's dh_strip make it
#   bare      stripped, nothing beside it; its debug file is debugroot/.build-id/xx/yyyy.debug
#             (a /usr/lib/debug stand-in)
# Needs binutils (objcopy, strip, nm, readelf) and xz.  usage: strip-variants.sh DIR
set -e
cd "$1"
objcopy --only-keep-debug full linked.debug
strip --strip-debug --strip-unneeded -o linked full
objcopy --add-gnu-debuglink=linked.debug linked
nm -D full --format=posix --defined-only | awk '{print $1}' | sort > dynsyms
nm full --format=posix --defined-only | awk '{ if ($2 == "T" || $2 == "t" || $2 == "D") print $1 }' | sort > funcsyms
comm -13 dynsyms funcsyms > keep_symbols
objcopy --only-keep-debug full mini.full-debug
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep_symbols mini.full-debug mini_debuginfo
rm -f mini_debuginfo.xz && xz mini_debuginfo
strip --strip-all -o mini full
objcopy --add-section .gnu_debugdata=mini_debuginfo.xz mini
strip --strip-all -o bare full
rm -rf debugroot
id=$(readelf -n full | sed -n 's/.*Build ID: *//p')
test -n "$id"
mkdir -p "debugroot/.build-id/$(echo "$id" | cut -c1-2)"
objcopy --only-keep-debug full "debugroot/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
