module github.com/mkvet/mkvet

go 1.26
