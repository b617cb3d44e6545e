mkdir -p /d/e && echo hi > /d/e/f && cat /d/e/f | wc -c; ls -la /d; rm -r /d; test -e /d || echo gone
