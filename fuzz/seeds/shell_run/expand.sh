echo {1..3} {a,b}c; printf "%s-%d\n" x 5; read -r v <<< "here"; echo $v; echo $((RANDOM >= 0))
