echo a,b,c | awk -F, "{print \$2}"; echo hello | sed "s/l/L/g"; echo "{\"a\":1}" | jq .a; seq 5 | grep -c 3
