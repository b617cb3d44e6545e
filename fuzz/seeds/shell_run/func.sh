f() { local x=$1; echo ${x:-def} ${#x}; }; f; f abc; case abc in a*) echo yes;; esac
