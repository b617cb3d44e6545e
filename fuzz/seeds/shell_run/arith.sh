x=$(( 3 * (4 + 5) )); echo $x; arr=(a b c); echo ${arr[1]} ${#arr[@]}; echo "${arr[@]/b/B}"
