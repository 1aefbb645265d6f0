#!/bin/zsh -f
# complete.zsh FPATH-DIR LINE: what zsh's completion offers for LINE followed
# by TAB, one candidate a line, as a person at an interactive zsh would get
# it: a real zsh on a pseudo-terminal (zpty), compinit, the _wslgpu found on
# fpath. compadd is wrapped to print the candidates instead of inserting
# them (after github.com/Valodim/zsh-capture-completion). Errors that the
# completion functions print (such as "_values:compvalues:11: not enough
# arguments") come out too, prefixed "error: ".
# complete.zsh FPATH-DIR --each DIR LINE...: the same for each LINE, into
# DIR/1, DIR/2, ..., from one zsh: its compinit (2 s of CPU) is done once,
# and the line is emptied (^U) and the shell answers a command between two.
zmodload zsh/zpty || exit 3
zmodload zsh/zselect || exit 3
dir=$1
shift
each=""
if [[ $1 == --each ]]; then each=$2; shift 2; fi
zpty z zsh -f -i
zpty -w z "PS1='' PROMPT='' RPROMPT='' PROMPT_EOL_MARK=''"
zpty -w z "unsetopt zle_bracketed_paste; setopt no_beep"
zpty -w z "fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w z "exec 2>&1"
# Each candidate on its own marked line; the prefix already typed
# (-P, -i) is not part of what is offered.
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  local r=$?
  local m; for m in $__hits; do print -r -- "<hit>$m"; done
  return r
}'
zpty -w z '_wslgpu_done () { print -r -- "<done>"; }'
# ready N: the shell has read everything sent so far (it ran the command
# that prints <readyN>; its echo, which has "print" in it, is not that).
# comppostfuncs is set each time: a completion empties it.
ready() {
  zpty -w z "comppostfuncs=(_wslgpu_done); print -r -- '<ready$1>'"
  while zpty -r z out; do [[ $out == *"<ready$1>"* && $out != *print* ]] && break; done
}
ready 0
# complete LINE: what TAB offers after LINE, on stdout
complete() {
  zpty -w -n z "$1"$'\t'
  # Until the completion says it is done; the limit only stops a hang: a
  # fresh zsh's compinit on a loaded machine took more than 20 s.
  SECONDS=0
  while (( SECONDS < 180 )); do
    zpty -r -t z out || { zselect -t 1; continue; }
    out=${out//$'\r'/}
    out=${out//$'\e'\[[0-9;?]#[a-zA-Z]/}
    case $out in
    *'<done>'*) break ;;
    *'<hit>'*) print -r -- "${${out#*<hit>}%%$'\n'}" ;;
    *(_values|_arguments|compvalues|compadd|not enough|command not found|parse error)*)
      print -r -- "error: ${out%%$'\n'}" ;;
    esac
  done
}
if [[ -z $each ]]; then
  complete "$1"
else
  integer n=0
  for line in "$@"; do
    (( n > 0 )) && { zpty -w -n z $'\C-u'; ready $n; }
    n+=1
    complete "$line" >"$each/$n"
  done
fi
zpty -d z
