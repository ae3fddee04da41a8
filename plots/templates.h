/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots/templates.h - the gnuplot templates of plots/templates/, compiled into the
 * library by plots/templates/gp2c.sh (section [NAME] of FILE.gp is plot_tpl_FILE_NAME).
 * gp_expand() (plots/gp.h) fills in their placeholders.
 */
#ifndef CS_PLOTS_TEMPLATES_H
#define CS_PLOTS_TEMPLATES_H

/* terminal.gp */
extern const char plot_tpl_terminal_select[];

/* stacked.gp: the script of a stacked plot of traces */
extern const char plot_tpl_stacked_head[];
extern const char plot_tpl_stacked_variables[];
extern const char plot_tpl_stacked_subtitle[];
extern const char plot_tpl_stacked_frame[];
extern const char plot_tpl_stacked_title[];
extern const char plot_tpl_stacked_subtitle_label[];
extern const char plot_tpl_stacked_end[];

/* panels.gp: its panels */
extern const char plot_tpl_panels_margins[];
extern const char plot_tpl_panels_key[];
extern const char plot_tpl_panels_report[];
extern const char plot_tpl_panels_a[];
extern const char plot_tpl_panels_a_series[];
extern const char plot_tpl_panels_a_legend[];
extern const char plot_tpl_panels_limits[];
extern const char plot_tpl_panels_contract[];
extern const char plot_tpl_panels_contract_legend[];
extern const char plot_tpl_panels_b[];
extern const char plot_tpl_panels_b_series[];
extern const char plot_tpl_panels_b_legend[];
extern const char plot_tpl_panels_c[];
extern const char plot_tpl_panels_c_series[];
extern const char plot_tpl_panels_c_legend[];
extern const char plot_tpl_panels_d[];
extern const char plot_tpl_panels_d_series[];
extern const char plot_tpl_panels_d_kind_key[];
extern const char plot_tpl_panels_d_legend[];
extern const char plot_tpl_panels_e[];
extern const char plot_tpl_panels_e_series[];
extern const char plot_tpl_panels_e_legend[];
extern const char plot_tpl_panels_e_labels[];

/* heatmap.gp */
extern const char plot_tpl_heatmap_script[];

#endif
