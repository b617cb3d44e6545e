trap "echo bye" EXIT; set -e; false || true; while read l; do echo "$l"; done < /dev/null; exit 3
