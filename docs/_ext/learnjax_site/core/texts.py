"""Every interface string the site's own extensions print, in both languages."""

from __future__ import annotations

TEXTS = {
    "ko": {
        "switch_label": "English",
        "switch_title": "이 페이지를 영어로 보기",
        "lesson_position": "{part} · 전체 {total}강 중 {number}강",
        "reading_time": "읽는 데 약 {minutes}분",
        "tags": "태그",
        "all_tags": "모든 태그",
        "sidebar_toggle": "{title}의 하위 페이지 펼치기·접기",
        "tag_page_title": "태그: {tag}",
        "tag_page_intro": "이 태그가 붙은 강의: {count}개",
        "glossary_term": "용어",
        "glossary_translation": "영어",
        "glossary_definition": "정의",
        "progress_toggle": "다 읽은 강의로 표시",
        "progress_done_label": "다 읽음",
        "progress_count": "{total}강 중 {done}강을 읽었습니다",
        "progress_reset": "진도 초기화",
        "progress_confirm": "이 브라우저에 저장한 진도를 모두 지울까요?",
        "progress_note": "진도는 이 브라우저에만 저장되며 어디에도 전송되지 않습니다.",
        "provenance": (
            "이 페이지의 출력은 {when}에 {device}에서 실행해 만들었습니다(디바이스 {count}개, "
            "JAX {jax}, jaxlib {jaxlib}, 실행 시간 {seconds}초)."
        ),
        "provenance_missing": "이 페이지의 실행 기록을 찾지 못했습니다.",
        "mental-model": "멘탈 모델",
        "trap": "함정",
        "why-it-matters": "왜 중요한가",
        "exercise": "연습 문제",
        "solution_show": "풀이 보기",
        "solution_hide": "풀이 숨기기",
        "source_of": "소스 코드: {name}",
        "report_page": "페이지",
        "report_outputs": "출력",
        "report_executed": "이번 빌드에서 실행",
        "report_cache": "이 기계의 이전 빌드에서 가져옴",
        "report_kept": "저장소에 보관한 출력",
        "report_seconds": "실행 시간(초)",
        "report_device": "디바이스",
        "report_backend": "백엔드",
        "report_versions": "JAX / jaxlib",
        "report_when": "실행 시각",
        "report_empty": "이 빌드에는 실행한 강의가 없습니다.",
        "notebook_links_label": "이 강의의 노트북",
        "notebook_download": "노트북 내려받기",
        "notebook_download_title": "빌드에서 실행한 출력까지 담은 Jupyter 노트북(.ipynb)으로 이 강의를 내려받습니다",
        "notebook_colab": "Colab에서 열기",
        "notebook_colab_title": "이 강의의 노트북을 Google Colab에서 엽니다",
        "notebook_outputs": (
            "노트북에 담긴 출력도 그 실행에서 나온 것입니다. 위에서부터 차례로 실행하면 여러분의 환경에서 "
            "새 출력이 만들어집니다."
        ),
        "notebook_raises": (
            "오류를 보여 주려고 일부러 예외를 일으키는 셀이 있습니다. Jupyter는 ‘모두 실행’ 중에도 그 셀을 지나 계속 "
            "실행하지만, Colab은 그 셀에서 멈춥니다. 그때는 다음 셀부터 이어서 실행하세요."
        ),
        "notebook_page_link": "사이트에서 이 강의 읽기",
        "notebook_programs": "아래 셀은 이 강의의 풀이가 실행하는 프로그램({files})을 작업 폴더에 파일로 저장합니다.",
        "notfound_title": "페이지를 찾을 수 없습니다",
        "notfound_text": "이 주소에는 페이지가 없습니다. 페이지가 옮겨졌거나 주소를 잘못 입력했을 수 있습니다.",
        "notfound_home": "첫 페이지로 가기",
        "notfound_search": "사이트 검색하기",
        "search_description": ("JAX 배우기의 모든 강의와 용어집을 검색합니다. "
                               "조사가 붙은 낱말로도 찾을 수 있습니다."),
        "problem_link": "문제 신고",
        "problem_link_title": "이 페이지의 문제를 GitHub 이슈로 알려 주세요",
        "problem_issue_body": "페이지: {title}\n주소: {url}\n언어: 한국어 (ko)\n\n어떤 문제인지 적어 주세요.\n",
    },
    "en": {
        "switch_label": "한국어",
        "switch_title": "Read this page in Korean",
        "lesson_position": "{part} · Lesson {number} of {total}",
        "reading_time": "About {minutes} min read",
        "tags": "Tags",
        "all_tags": "All tags",
        "sidebar_toggle": "Show or hide the pages under {title}",
        "tag_page_title": "Tag: {tag}",
        "tag_page_intro": "Lessons with this tag: {count}",
        "glossary_term": "Term",
        "glossary_translation": "Korean",
        "glossary_definition": "Definition",
        "progress_toggle": "Mark this lesson as done",
        "progress_done_label": "Done",
        "progress_count": "{done} of {total} lessons done",
        "progress_reset": "Reset progress",
        "progress_confirm": "Clear the progress saved in this browser?",
        "progress_note": "Your progress is kept in this browser only and is never sent anywhere.",
        "provenance": (
            "The outputs on this page were made on {when} on {device} ({count} {devices}) "
            "with JAX {jax} and jaxlib {jaxlib}, in {seconds} s of execution."
        ),
        "provenance_missing": "No execution record was found for this page.",
        "mental-model": "Mental model",
        "trap": "Trap",
        "why-it-matters": "Why it matters",
        "exercise": "Exercise",
        "solution_show": "Show the solution",
        "solution_hide": "Hide the solution",
        "source_of": "Program source: {name}",
        "report_page": "Page",
        "report_outputs": "Outputs",
        "report_executed": "executed in this build",
        "report_cache": "from this machine's earlier build",
        "report_kept": "kept in the repository",
        "report_seconds": "Execution (s)",
        "report_device": "Device",
        "report_backend": "Backend",
        "report_versions": "JAX / jaxlib",
        "report_when": "Ran at",
        "report_empty": "No lesson was executed for this build.",
        "notebook_links_label": "This lesson as a notebook",
        "notebook_download": "Download notebook",
        "notebook_download_title": (
            "Download this lesson as a Jupyter notebook (.ipynb), with the outputs the build made"
        ),
        "notebook_colab": "Open in Colab",
        "notebook_colab_title": "Open this lesson's notebook in Google Colab",
        "notebook_outputs": "The outputs in this notebook come from that run. Run it from the top to make your own.",
        "notebook_raises": (
            "Some cells raise an error on purpose, to show it. Jupyter's Run All goes on past them; Colab "
            "stops there, so run on from the next cell."
        ),
        "notebook_page_link": "Read this lesson on the site",
        "notebook_programs": (
            "The cells below save the programs this lesson's solution runs as files in the working folder: {files}."
        ),
        "notfound_title": "Page not found",
        "notfound_text": "There is no page at this address. The page may have moved, or the link may be mistyped.",
        "notfound_home": "Go to the home page",
        "notfound_search": "Search the site",
        "search_description": "Search every lesson and the glossary of Learning JAX, in English or in Korean.",
        "problem_link": "Report a problem",
        "problem_link_title": "Tell us about a problem on this page in a GitHub issue",
        "problem_issue_body": "Page: {title}\nURL: {url}\nLanguage: English (en)\n\nWhat is wrong?\n",
    },
}


def text(language: str, key: str, **values) -> str:
    """The string ``key`` in ``language``, formatted with ``values``."""
    return TEXTS[language][key].format(**values)
