# bash completion for dractl, written by `dractl completion bash`.
# Command words come from this script; options from `dractl <command> --help`.

_dractl_subcommands() {
    case "$1" in
@SUBCOMMANDS@    esac
}

_dractl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local program=${COMP_WORDS[0]} group='' word i children
    [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        [[ $word == -* || $word == help ]] && continue
        children=" $(_dractl_subcommands "$group") "
        if [[ $children != *" $word "* ]]; then
            # The value of an option ("--cache FILE rollout ..."), else the first argument.
            [[ ${COMP_WORDS[i - 1]} == -* ]] && continue
            break
        fi
        group=${group:+$group }$word
    done
    COMPREPLY=()
    # The value of an option that takes one ("--cache <file>"): leave it to file completion.
    if [[ $prev == -* && $cur != -* ]] \
        && "$program" $group --help 2>/dev/null | grep -qE -- "(^| )$prev <"; then
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$program" $group --help 2>/dev/null | @OPTION_NAMES@)" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "$(_dractl_subcommands "$group")" -- "$cur"))
}

complete -o default -F _dractl dractl
