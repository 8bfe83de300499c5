#compdef dractl
# zsh completion for dractl, written by `dractl completion zsh`.
# Command words come from this script; options from `dractl <command> --help`.

_dractl_subcommands() {
    case "$1" in
@SUBCOMMANDS@    esac
}

_dractl() {
    local program=${words[1]/#\~/$HOME} group='' word i
    local -a reply names options
    for ((i = 2; i < CURRENT; i++)); do
        word=${words[i]}
        [[ $word == -* || $word == help ]] && continue
        reply=()
        _dractl_subcommands "$group"
        names=(${reply%%:*})
        if (( ! ${names[(Ie)$word]} )); then
            # The value of an option ("--cache FILE rollout ..."), else the first argument.
            [[ ${words[i - 1]} == -* ]] && continue
            break
        fi
        group=${group:+$group }$word
    done
    local cur=${words[CURRENT]} prev=${words[CURRENT - 1]}
    if [[ $prev == -* && $cur != -* ]] \
        && $program ${=group} --help 2>/dev/null | grep -qE -- "(^| )$prev <"; then
        _files
        return
    fi
    if [[ $cur == -* ]]; then
        options=(${(f)"$($program ${=group} --help 2>/dev/null | @OPTION_NAMES@)"})
        compadd -- $options
        return
    fi
    reply=()
    _dractl_subcommands "$group"
    if (( $#reply )); then
        _describe -t commands 'dractl command' reply
    else
        _files
    fi
}

if [[ $funcstack[1] == _dractl ]]; then
    _dractl "$@"
else
    compdef _dractl dractl
fi
